import Foundation

/// Round 3, classes 3–5 — no silent loss in outputs (standard output is checked like a file), text
/// printed never drives the terminal, a read-only store can be read, and the CLI's own contract
/// (usage errors exit 2, offsets are real, echoes are capped, no Foundation error texts).
extension HostileCorpus {
    /// A health report and a meal whose name carries terminal escape sequences, stored in `db`.
    static func storedLog(_ box: Sandbox, db: String) throws {
        _ = try HostileRunner.launch(Invocation(arguments: ["reports", "add", "--db", db, "--at", "2024-03-05 20:00", "--value", "pain=3:3",
                                                            "--value", "mood=4:2", "--timezone", "UTC"]))
        _ = try HostileRunner.launch(Invocation(arguments: ["add", "meal", "--db", db, "--at", "2024-03-05 12:00", "--carbs", "40",
                                                            "--name", "\u{1B}[31mRED\u{1B}]0;pwned\u{07}", "--timezone", "UTC"]))
    }

    static let contract: [HostileCase] = [
        // Class 3: standard output is an output.
        HostileCase("reports-list-to-a-full-device-fails",
                    Expectation(exit: 1, stderr: ["standard output", "No space left on device"])) { box in
            try storedLog(box, db: box.db)
            return Invocation(arguments: ["exec $HEALTHPIPE reports list --db \(box.db) > /dev/full"], shell: true)
        },
        HostileCase("chart-day-to-a-full-device-fails-without-a-crash",
                    Expectation(exit: 1, stderr: ["standard output", "No space left on device"], stderrNot: ["Fatal", "Illegal"])) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["exec $HEALTHPIPE chart day --db \(box.db) > /dev/full"], shell: true)
        },
        // Class 4: terminal and read-only.
        HostileCase("entries-list-escapes-a-meal-name's-terminal-sequences",
                    Expectation(exit: 0, writes: Sandbox.defaultOutputs.union(["out.txt"]), check: { box in
                        let out = (try? Data(contentsOf: URL(fileURLWithPath: box.path("out.txt")))) ?? Data()
                        let text = String(decoding: out, as: UTF8.self)
                        return !out.contains(0x1B) && !out.contains(0x07) && text.contains("\\u{1b}[31mRED") ? [] : ["printed raw: \(text.debugDescription)"]
                    })) { box in
            try storedLog(box, db: box.db)
            return Invocation(arguments: ["exec $HEALTHPIPE entries list --db \(box.db) > \(box.path("out.txt"))"], shell: true)
        },
        HostileCase("read-only-store-is-read-by-reports-list",
                    Expectation(exit: 0, stderrNot: ["readonly", "read-only"], writes: [])) { box in
            try readOnlyStore(box)
            return Invocation(arguments: ["reports", "list", "--db", box.path("ro/h.sqlite")], unprivileged: true)
        },
        HostileCase("read-only-store-is-read-by-page",
                    Expectation(exit: 0, stderrNot: ["readonly"], writes: ["page.html"])) { box in
            try readOnlyStore(box)
            return Invocation(arguments: ["page", "--db", box.path("ro/h.sqlite"), "-o", box.path("page.html")], unprivileged: true)
        },
        // Class 5: the CLI's own contract.
        HostileCase("usage-error-exits-2",
                    Expectation(exit: 2, stderr: ["--bogus"], writes: [])) { box in
            Invocation(arguments: ["chart", "day", "--db", box.db, "--bogus"])
        },
        HostileCase("timezone-plus-01-60-is-refused",
                    Expectation(exit: 2, noDatabase: true, stderr: ["+01:60"], writes: [])) { box in
            Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", box.db, "--timezone", "+01:60"])
        },
        HostileCase("a-ten-kilobyte-argument-is-echoed-capped",
                    Expectation(exit: 2, stderr: ["--date", "more bytes"], stderrLimit: 2000)) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["chart", "day", "--db", box.db, "--date", String(repeating: "Z", count: 10_000)])
        },
        HostileCase("a-ten-kilobyte-option-name-is-echoed-capped",
                    Expectation(exit: 2, stderrLimit: 3000, writes: [])) { box in
            Invocation(arguments: ["import", "x.csv", "--db", box.db, "--" + String(repeating: "Z", count: 10_000)])
        },
        HostileCase("fhir-output-folder-that-is-a-file-names-the-reason",
                    Expectation(exit: 1, stderr: ["afile", "is a file, not a folder"], stderrNot: ["NSCocoaErrorDomain", "could not be completed"],
                                writes: [])) { box in
            try box.write("in.csv", CorpusData.clarity)
            try box.write("afile", "the user's file")
            try box.write("p.yml", pipelineHead + "sinks:\n  f: { type: fhir, inputs: [c], path: afile }\n")
            return Invocation(arguments: ["run", box.path("p.yml"), "--timezone", "UTC"])
        },
    ]

    /// ro/h.sqlite holding the health log, read-only, in a folder that cannot be written, without
    /// the -wal/-shm files (as a copied or archived store is).
    static func readOnlyStore(_ box: Sandbox) throws {
        let db = box.path("ro/h.sqlite")
        try FileManager.default.createDirectory(atPath: box.path("ro"), withIntermediateDirectories: true)
        try storedLog(box, db: db)
        _ = try HostileRunner.launch(Invocation(arguments: ["import", CorpusData.clarityURL.path, "--db", db, "--timezone", "UTC", "--quiet"]))
        unlink(db + "-wal")
        unlink(db + "-shm")
        chmod(db, 0o444)
        chmod(box.path("ro"), 0o555)
    }
}
