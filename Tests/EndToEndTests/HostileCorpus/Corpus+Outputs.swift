import Foundation

/// Outputs: nothing the user has is deleted or overwritten except a regular file, by rename; a
/// directory, device or unwritable output is refused before any work (no database is created).
extension HostileCorpus {
    static let outputs: [HostileCase] = [
        HostileCase("ndjson-output-is-a-non-empty-directory",
                    Expectation(exit: 1, noDatabase: true, stderr: ["docs", "is a directory"], writes: [])) { box in
            try box.write("docs/keep.txt", "the user's file")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("docs")]))
        },
        HostileCase("ndjson-output-is-a-device",
                    Expectation(exit: 1, noDatabase: true, stderr: ["device", "not a regular file"], writes: [])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", try box.device("device")]))
        },
        HostileCase("ndjson-output-replaces-a-regular-file-by-rename",
                    Expectation(exit: 0, measurements: CorpusData.clarityReadings, writes: Sandbox.defaultOutputs.union(["out.ndjson"]),
                                check: { box in
                                    let text = try String(contentsOfFile: box.path("out.ndjson"), encoding: .utf8)
                                    let n = text.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"measurement\"") }.count
                                    return n == CorpusData.clarityReadings && !text.contains("old content") ? [] : ["out.ndjson has \(n) measurements"]
                                })) { box in
            try box.write("out.ndjson", "old content\n")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("out.ndjson")]))
        },
        HostileCase("ndjson-output-through-a-symlink-keeps-the-link",
                    Expectation(exit: 0, measurements: CorpusData.clarityReadings, writes: Sandbox.defaultOutputs.union(["real.ndjson"]),
                                check: { box in
                                    let size = (try FileManager.default.attributesOfItem(atPath: box.path("real.ndjson"))[.size] as? NSNumber)?.intValue ?? 0
                                    return size > 100_000 ? [] : ["real.ndjson was not written through the link (\(size) bytes)"]
                                })) { box in
            try box.write("real.ndjson", "old\n")
            try FileManager.default.createSymbolicLink(atPath: box.path("link.ndjson"), withDestinationPath: "real.ndjson")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("link.ndjson")]))
        },
        HostileCase("ndjson-output-in-a-read-only-folder",
                    Expectation(exit: 1, noDatabase: true, stderr: ["locked/out.ndjson", "cannot create files"], writes: [])) { box in
            try FileManager.default.createDirectory(atPath: box.path("locked"), withIntermediateDirectories: true)
            chmod(box.path("locked"), 0o555)
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("locked/out.ndjson")]),
                              unprivileged: true)
        },
        HostileCase("ndjson-output-under-a-regular-file",
                    Expectation(exit: 1, noDatabase: true, stderr: ["Not a directory"], writes: [])) { box in
            try box.write("afile", "x")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("afile/out.ndjson")]))
        },
        HostileCase("database-path-is-a-directory",
                    Expectation(exit: 1, stderr: ["dbdir", "is a directory"], writes: [])) { box in
            try box.write("dbdir/keep.txt", "x")
            return Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", box.path("dbdir"), "--timezone", "UTC"])
        },
        HostileCase("database-path-is-a-device",
                    Expectation(exit: 1, stderr: ["device", "not a regular file"], writes: [])) { box in
            Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", try box.device("device"), "--timezone", "UTC",
                                   "--quarantine", box.quarantine])
        },
        HostileCase("read-only-database-names-its-path",
                    Expectation(exit: 1, stderr: ["h.sqlite", "database", "Permission denied"], writes: [])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            _ = try HostileRunner.launch(Invocation(arguments: box.importing([input])))
            return Invocation(arguments: box.importing([input]), unprivileged: true)
        },
        HostileCase("quarantine-path-is-a-directory",
                    Expectation(exit: 1, noDatabase: true, stderr: ["qdir", "is a directory"], writes: [])) { box in
            try box.write("qdir/keep.txt", "x")
            let bad = CorpusData.clarity { $0[300] = Data("290,2016-10-25T10:00:00,EGV,,,,iPhone G6,abc,,,,".utf8) }
            return Invocation(arguments: box.importing([try box.write("in.csv", bad)], ["--quarantine", box.path("qdir")]))
        },
        HostileCase("quarantine-path-in-proc",
                    Expectation(exit: 1, noDatabase: true, stderr: ["/proc/hp-quarantine.ndjson", "cannot"], writes: [])) { box in
            let bad = CorpusData.clarity { $0[300] = Data("290,2016-10-25T10:00:00,EGV,,,,iPhone G6,abc,,,,".utf8) }
            return Invocation(arguments: box.importing([try box.write("in.csv", bad)], ["--quarantine", "/proc/hp-quarantine.ndjson"]))
        },
        HostileCase("chart-output-is-a-device",
                    Expectation(exit: 1, stderr: ["chart-device", "not a regular file"], writes: [])) { box in
            let capture = E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path
            return Invocation(arguments: ["stream", "--replay", capture, "--start", "2026-01-05T07:30:00Z", "--db", box.path("b.sqlite"),
                                          "--timezone", "UTC", "--chart", try box.device("chart-device")])
        },
        HostileCase("report-path-is-a-directory",
                    Expectation(exit: 1, noDatabase: true, stderr: ["rdir", "is a directory"], writes: [])) { box in
            try box.write("rdir/keep.txt", "x")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--report", box.path("rdir")]))
        },
        HostileCase("report-replaces-a-regular-file",
                    Expectation(exit: 0, measurements: CorpusData.clarityReadings, writes: Sandbox.defaultOutputs.union(["run.json"]),
                                check: { box in
                                    let text = try String(contentsOfFile: box.path("run.json"), encoding: .utf8)
                                    return text.contains("\"outcome\"") && !text.contains("stale") ? [] : ["run.json: \(text.prefix(80))"]
                                })) { box in
            try box.write("run.json", "stale")
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--report", box.path("run.json")]))
        },
    ]
}
