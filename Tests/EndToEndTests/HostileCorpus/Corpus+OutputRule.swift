import Foundation

/// Round 3, class 1 — one output rule (`FileRoles.clash`): no path a command or pipeline writes may
/// be one of its inputs or stores or another output (same path, hard link, symbolic link); refused
/// with exit 2 naming both, before any work. An interrupted run leaves the previous output whole.
extension HostileCorpus {
    /// Imports the Clarity sample into the sandbox's h.sqlite (a setup step, not the case).
    static func storedClarity(_ box: Sandbox) throws -> String {
        let input = try box.write("in.csv", CorpusData.clarity)
        _ = try HostileRunner.launch(Invocation(arguments: box.importing([input], ["--quiet"])))
        return input
    }

    static let pipelineHead = "sources:\n  c: { type: dexcom-clarity, path: in.csv }\n"

    static let outputRule: [HostileCase] = [
        HostileCase("page-output-is-the-database",
                    Expectation(exit: 2, stderr: ["h.sqlite", "database", "HTML page"], writes: [])) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["page", "--db", box.db, "-o", box.db])
        },
        HostileCase("page-output-is-a-hard-link-to-the-database",
                    Expectation(exit: 2, stderr: ["page.html", "h.sqlite", "the same file"], writes: [])) { box in
            _ = try storedClarity(box)
            link(box.db, box.path("page.html"))
            return Invocation(arguments: ["page", "--db", box.db, "-o", box.path("page.html")])
        },
        HostileCase("chart-svg-is-a-symlink-to-the-database",
                    Expectation(exit: 2, stderr: ["day.svg", "h.sqlite", "SVG"], writes: [])) { box in
            _ = try storedClarity(box)
            try FileManager.default.createSymbolicLink(atPath: box.path("day.svg"), withDestinationPath: "h.sqlite")
            return Invocation(arguments: ["chart", "day", "--db", box.db, "--date", "2016-10-25", "--svg", box.path("day.svg")])
        },
        HostileCase("chart-svg-is-the-database",
                    Expectation(exit: 2, stderr: ["h.sqlite", "SVG"], writes: [])) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["chart", "agp", "--db", box.db, "--svg", box.db])
        },
        HostileCase("import-ndjson-over-its-input",
                    Expectation(exit: 2, noDatabase: true, stderr: ["in.csv", "NDJSON output", "input"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: box.importing([input], ["--ndjson", input]))
        },
        HostileCase("import-report-over-its-input",
                    Expectation(exit: 2, noDatabase: true, stderr: ["in.csv", "report"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: box.importing([input], ["--report", input]))
        },
        HostileCase("import-quarantine-over-its-input",
                    Expectation(exit: 2, noDatabase: true, stderr: ["in.csv", "quarantine"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: box.importing([input], ["--quarantine", input]))
        },
        HostileCase("import-ndjson-is-the-database",
                    Expectation(exit: 2, stderr: ["h.sqlite", "NDJSON output", "database"], writes: [])) { box in
            let input = try storedClarity(box)
            return Invocation(arguments: box.importing([input], ["--ndjson", box.db]))
        },
        HostileCase("import-ndjson-and-report-share-a-path",
                    Expectation(exit: 2, noDatabase: true, stderr: ["out.json", "report", "NDJSON output"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: box.importing([input], ["--ndjson", box.path("out.json"), "--report", box.path("out.json")]))
        },
        HostileCase("import-the-same-input-twice-through-a-link",
                    Expectation(exit: 2, noDatabase: true, stderr: ["in.csv", "twice"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            try FileManager.default.createSymbolicLink(atPath: box.path("again.csv"), withDestinationPath: "in.csv")
            return Invocation(arguments: box.importing([input, box.path("again.csv")]))
        },
        HostileCase("pipeline-two-sinks-share-a-path-is-refused-by-validate",
                    Expectation(exit: 2, stderr: ["out.ndjson", "of b", "of a"], writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("p.yml", pipelineHead + "sinks:\n  a: { type: ndjson, inputs: [c], path: out.ndjson }\n"
                          + "  b: { type: ndjson, inputs: [c], path: out.ndjson }\n")
            return Invocation(arguments: ["validate", box.path("p.yml")])
        },
        HostileCase("pipeline-sink-over-its-source-is-refused-by-validate",
                    Expectation(exit: 2, stderr: ["in.csv", "input of c"], writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("p.yml", pipelineHead + "sinks:\n  a: { type: ndjson, inputs: [c], path: in.csv }\n")
            return Invocation(arguments: ["validate", box.path("p.yml")])
        },
        HostileCase("pipeline-sink-over-its-source-is-refused-by-run",
                    Expectation(exit: 2, stderr: ["in.csv", "input of c"], writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("p.yml", pipelineHead + "sinks:\n  a: { type: ndjson, inputs: [c], path: in.csv }\n")
            return Invocation(arguments: ["run", box.path("p.yml"), "--timezone", "UTC"])
        },
        HostileCase("pipeline-ndjson-over-its-database",
                    Expectation(exit: 2, noDatabase: true, stderr: ["p.sqlite", "database of db"], writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("p.yml", pipelineHead + "sinks:\n  db: { type: sqlite, inputs: [c], path: p.sqlite }\n"
                          + "  a: { type: ndjson, inputs: [c], path: p.sqlite }\n")
            return Invocation(arguments: ["run", box.path("p.yml"), "--timezone", "UTC"])
        },
        HostileCase("pipeline-fhir-over-its-source",
                    Expectation(exit: 2, stderr: ["Observation.ndjson", "input of n"], writes: [])) { box in
            try box.write("fhir/Observation.ndjson", "{\"type\":\"measurement\"}\n")
            try box.write("p.yml", "sources:\n  n: { type: ndjson-source, path: fhir/Observation.ndjson }\n"
                          + "sinks:\n  f: { type: fhir, inputs: [n], path: fhir }\n")
            return Invocation(arguments: ["validate", box.path("p.yml")])
        },
        HostileCase("pipeline-the-same-input-twice",
                    Expectation(exit: 2, stderr: ["in.csv", "twice"], writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("p.yml", pipelineHead + "  d: { type: dexcom-clarity, path: ./in.csv }\n"
                          + "sinks:\n  a: { type: ndjson, inputs: [c, d], path: out.ndjson }\n")
            return Invocation(arguments: ["run", box.path("p.yml"), "--timezone", "UTC"])
        },
        HostileCase("interrupted-import-keeps-the-previous-ndjson",
                    Expectation(exit: 1, stderr: ["interrupted"], stopWithin: 1.0,
                                check: { box in
                                    let text = (try? String(contentsOfFile: box.path("out.ndjson"), encoding: .utf8)) ?? "(missing)"
                                    return text == "the previous output\n" ? [] : ["out.ndjson was replaced: \(text.prefix(80))"]
                                })) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("out.ndjson", "the previous output\n")
            mkfifo(box.path("feed.csv"), 0o644)
            // The whole sample arrives, then the writer stalls with the FIFO open: SIGTERM ends the run.
            return Invocation(arguments: ["(exec 3>\(box.path("feed.csv")); cat \(box.path("in.csv")) >&3; sleep 6) &", "exec $HEALTHPIPE"]
                                  + box.importing([box.path("feed.csv")], ["--format", "dexcom-clarity", "--ndjson", box.path("out.ndjson")]),
                              terminateAfter: 2.0, shell: true)
        },
    ]
}
