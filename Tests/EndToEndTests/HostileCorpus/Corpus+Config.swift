import Foundation

/// Hostile YAML (pipelines, re-aggregation settings, adapters): refused with a clear error and
/// exit 2 before the recursive YAML parser runs; nothing is read or written.
extension HostileCorpus {
    static let deepFlow = "sources:\n  a: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"
    static let deepBlock: String = {
        var s = "sources:\n"
        for i in 0..<300 { s += String(repeating: " ", count: 2 * (i + 1)) + "k\(i):\n" }
        return s + String(repeating: " ", count: 602) + "x\n"
    }()

    static let config: [HostileCase] = [
        HostileCase("pipeline-nested-5000-levels", Expectation(exit: 2, stderr: ["deep.yml:2", "nested more than 64 levels"], writes: [])) { box in
            Invocation(arguments: ["run", try box.write("deep.yml", deepFlow)])
        },
        HostileCase("pipeline-nested-by-indentation", Expectation(exit: 2, stderr: ["nested more than 64 levels"], writes: [])) { box in
            Invocation(arguments: ["validate", try box.write("deep.yml", deepBlock)])
        },
        HostileCase("pipeline-of-nested-dashes", Expectation(exit: 2, stderr: ["nested more than 64 levels"], writes: [])) { box in
            Invocation(arguments: ["validate", try box.write("dash.yml", String(repeating: "- ", count: 3000) + "x\n")])
        },
        HostileCase("pipeline-over-one-megabyte", Expectation(exit: 2, stderr: ["at most 1024 KiB"], writes: [])) { box in
            Invocation(arguments: ["validate", try box.write("big.yml", "# " + String(repeating: "x", count: 2 << 20) + "\n")])
        },
        HostileCase("pipeline-with-a-huge-scalar-is-quoted-capped",
                    Expectation(exit: 2, stderr: ["unknown source type"], stderrLimit: 4096, writes: [])) { box in
            let text = "sources:\n  a: { type: " + String(repeating: "y", count: 500_000) + ", path: x.csv }\n"
            return Invocation(arguments: ["validate", try box.write("wide.yml", text)])
        },
        // YAML keeps one of two equal keys silently: the file would run with a value its author did not mean.
        HostileCase("pipeline-option-given-twice", Expectation(exit: 2, stderr: ["dup.yml:2:", "'path' is given twice"], writes: [])) { box in
            Invocation(arguments: ["validate", try box.write("dup.yml", "sources:\n  a: { type: libreview, path: x.csv, path: y.csv }\n"
                + "sinks:\n  db: { type: sqlite, inputs: [a], path: h.sqlite }\n")])
        },
        HostileCase("adapter-key-given-twice", Expectation(exit: 2, stderr: ["meter.yaml:3:", "'separator' is given twice"], writes: [])) { box in
            try box.write("adapters/meter.yaml", "name: meter\nseparator: \",\"\nseparator: \";\"\ndescription: x\n"
                + "detect: { header_contains: [t, g] }\ntimestamp: { column: t, format: \"%Y-%m-%d %H:%M\" }\ncolumns: { g: { metric: glucose, unit: mg/dL } }\n")
            return Invocation(arguments: ["plugins", "--plugin-path", box.path("adapters")])
        },
        HostileCase("pipeline-alias-bomb", Expectation(exit: 2, stderr: ["aliases"], writes: [])) { box in
            var text = "a0: &a0 [x, x]\n"
            for i in 1...1200 { text += "a\(i): &a\(i) [*a\(i - 1), *a\(i - 1)]\n" }
            return Invocation(arguments: ["validate", try box.write("bomb.yml", text)])
        },
        HostileCase("pipeline-file-is-a-directory", Expectation(exit: 2, stderr: ["is a directory"], writes: [])) { box in
            try box.write("p.yml/x", "x")
            return Invocation(arguments: ["run", box.path("p.yml")])
        },
        HostileCase("pipeline-file-is-binary", Expectation(exit: 2, stderr: ["bin.yml"], writes: [])) { box in
            Invocation(arguments: ["validate", try box.write("bin.yml", Data([0x00, 0xFF, 0xFE, 0x01, 0x80, 0x0A, 0x5B, 0x7B]))])
        },
        HostileCase("reaggregate-settings-nested-5000-levels",
                    Expectation(exit: 2, stderr: ["settings.yml:2", "nested more than 64 levels"])) { box in
            _ = try HostileRunner.launch(Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)])))
            return Invocation(arguments: ["reaggregate", "--db", box.db, "--config", try box.write("settings.yml", "classify:\n  x: "
                + String(repeating: "{a: ", count: 3000) + "1" + String(repeating: "}", count: 3000) + "\n")])
        },
        HostileCase("adapter-on-the-plugin-path-nested-5000-levels",
                    Expectation(exit: 2, noDatabase: true, stderr: ["bad.yaml:2", "nested more than 64 levels"], writes: [])) { box in
            try box.write("adapters/bad.yaml", deepFlow)
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--plugin-path", box.path("adapters")]))
        },
        HostileCase("adapter-in-HEALTHPIPE_PLUGIN_PATH-does-not-crash-every-command",
                    Expectation(exit: 2, stderr: ["bad.yaml:2", "nested more than 64 levels"], writes: [])) { box in
            try box.write("adapters/bad.yaml", deepFlow)
            return Invocation(arguments: ["plugins"], environment: ["HEALTHPIPE_PLUGIN_PATH": box.path("adapters")])
        },
    ]
}
