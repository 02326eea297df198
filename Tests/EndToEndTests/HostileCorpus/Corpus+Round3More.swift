import Foundation

/// More of round 3's classes (issue 21), each case an attack a user or an attacker would try that the
/// corpus did not hold yet: outputs over inputs, numbers at the edge, truncation, nesting and sizes,
/// the terminal, and the CLI's contract.
extension HostileCorpus {
    /// The Clarity sample's header and first 19 lines (8 readings), then `rows`.
    static func clarityWith(_ rows: [String]) -> String {
        CorpusData.clarityLines.prefix(20).map(CorpusData.text).joined(separator: "\n") + "\n" + rows.joined(separator: "\n") + "\n"
    }

    static let goodReading = "{\"date\": 1775421329000, \"type\": \"sgv\", \"sgv\": 150}"

    static func importInput(_ box: Sandbox, _ extra: [String]) throws -> Invocation {
        Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], extra))
    }

    /// Exit 2 before any work: nothing written, nothing read.
    static func refused(_ words: [String], writes: Set<String> = []) -> Expectation {
        Expectation(exit: 2, noDatabase: true, stderr: words, writes: writes)
    }

    // MARK: Outputs over inputs

    static let moreOutputRule: [HostileCase] = [
        HostileCase("import-quarantine-is-the-database", Expectation(exit: 2, stderr: ["the quarantine file", "is the database"],
                                                                    writes: [])) { box in
            _ = try HostileRunner.launch(try importInput(box, ["--quiet"]))
            return Invocation(arguments: box.importing([box.path("in.csv")], ["--quarantine", box.db]))
        },
        HostileCase("import-report-is-the-database", Expectation(exit: 2, stderr: ["the report", "is the database"], writes: [])) { box in
            _ = try HostileRunner.launch(try importInput(box, ["--quiet"]))
            return Invocation(arguments: box.importing([box.path("in.csv")], ["--report", box.db]))
        },
        HostileCase("import-ndjson-through-a-symlink-to-its-input", refused(["NDJSON output", "is the input", "(the same file)"])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            try FileManager.default.createSymbolicLink(atPath: box.path("out.ndjson"), withDestinationPath: input)
            return Invocation(arguments: box.importing([input], ["--ndjson", box.path("out.ndjson")]))
        },
        HostileCase("import-report-is-a-hard-link-to-its-input", refused(["the report", "is the input", "(the same file)"])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            try FileManager.default.linkItem(atPath: input, toPath: box.path("report.json"))
            return Invocation(arguments: box.importing([input], ["--report", box.path("report.json")]))
        },
        HostileCase("import-quarantine-and-ndjson-share-a-path", refused(["the quarantine file", "is the NDJSON output"])) { box in
            try importInput(box, ["--ndjson", box.path("same.out"), "--quarantine", box.path("same.out")])
        },
        HostileCase("import-the-same-input-through-a-dotted-path", refused(["is given twice"])) { box in
            let input = try box.write("in.csv", CorpusData.clarity)
            try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
            return Invocation(arguments: box.importing([input, box.path("sub/../in.csv")]))
        },
        HostileCase("page-output-is-a-symlink-to-the-database", Expectation(exit: 2, stderr: ["the HTML page", "is the database"], writes: [])) { box in
            _ = try HostileRunner.launch(try importInput(box, ["--quiet"]))
            try FileManager.default.createSymbolicLink(atPath: box.path("page.html"), withDestinationPath: box.db)
            return Invocation(arguments: ["page", "--db", box.db, "-o", box.path("page.html")])
        },
        HostileCase("chart-day-of-a-csv-given-as-the-database-leaves-it-whole",
                    Expectation(exit: 1, stderr: ["not a database"], writes: [])) { box in
            Invocation(arguments: ["chart", "day", "--db", try box.write("in.csv", CorpusData.clarity)])
        },
        HostileCase("reports-list-of-a-csv-given-as-the-database-leaves-it-whole",
                    Expectation(exit: 2, stderr: ["not a database"], writes: [])) { box in
            Invocation(arguments: ["reports", "list", "--db", try box.write("in.csv", CorpusData.clarity)])
        },
    ]

    // MARK: Numbers at the edge

    static let moreBoundary: [HostileCase] = [
        HostileCase("clarity-glucose-of-1e308-and-300-digits-is-quarantined",
                    Expectation(exit: 3, measurements: 8, quarantined: [.line(21, "outside the plausible range"), .line(22, "")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", clarityWith([
                "999,2024-01-01T00:00:00,EGV,,,,G7,1e308,,,,", "998,2024-01-01T00:05:00,EGV,,,,G7,\(String(repeating: "9", count: 300)),,,,",
            ]))]))
        },
        HostileCase("clarity-years-9999-and-0001-are-quarantined",
                    Expectation(exit: 3, measurements: 8, quarantined: [.line(21, "9999-12-31 is outside the plausible dates"),
                                                                        .line(22, "0001-01-01 is outside the plausible dates")],
                                // The file's line counts what landed: the date gate's refusals are quarantined rows, not measurements
                                // (nor rows stored: the line adds up).
                                stderr: ["21 data rows = 8 stored + 2 quarantined + 11 skipped → 8 measurements, 0 events"])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", clarityWith([
                "997,9999-12-31T23:59:59,EGV,,,,G7,120,,,,", "996,0001-01-01T00:00:00,EGV,,,,G7,120,,,,",
            ]))]))
        },
        HostileCase("nightscout-sgv-of-1e400-and-minus-5-is-quarantined",
                    Expectation(exit: 3, measurements: 1, quarantined: [.any("sgv is not a number"), .any("CGM status code")])) { box in
            let json = "[{\"date\": 1775421029000, \"type\": \"sgv\", \"sgv\": 1e400},{\"date\": 1775421129000, \"type\": \"sgv\", \"sgv\": -5},"
                + goodReading + "]\n"
            return Invocation(arguments: box.importing([try box.write("ns.json", json)]))
        },
        HostileCase("nightscout-epoch-seconds-in-the-date-field-are-not-1970",
                    Expectation(exit: 0, measurements: 2, check: { box in
                        let years = box.query("SELECT strftime('%Y', start, 'unixepoch') FROM measurements")
                        return years == [["2026"], ["2026"]] ? [] : ["years \(years), expected 2026"]
                    })) { box in
            Invocation(arguments: box.importing([try box.write("ns.json", "[{\"date\": 1775421029, \"type\": \"sgv\", \"sgv\": 162}," + goodReading + "]\n")]))
        },
        HostileCase("entries-carbs-of-1e308-and-negative-insulin-are-quarantined",
                    Expectation(exit: 3, events: 1, quarantined: [.line(1, ""), .line(2, "")])) { box in
            let text = "{\"kind\": \"meal\", \"start\": \"2024-03-01T12:00:00Z\", \"carbs_g\": 1e308}\n"
                + "{\"kind\": \"insulin\", \"start\": \"2024-03-01T12:05:00Z\", \"units\": -5, \"type\": \"bolus\"}\n"
                + "{\"kind\": \"insulin\", \"start\": \"2024-03-01T12:06:00Z\", \"units\": 5, \"type\": \"bolus\"}\n"
            return Invocation(arguments: box.importing([try box.write("entries.ndjson", text)]))
        },
        HostileCase("health-report-temperature-of-1e308-is-quarantined",
                    Expectation(exit: 3, quarantined: [.line(1, "body_temperature")], check: { box in
                        box.query("SELECT count(*) FROM reports") == [["1"]] ? [] : ["one report must land"]
                    })) { box in
            let json = "[{\"time\": \"2024-03-01T08:00:00Z\", \"values\": [{\"metric\": \"body_temperature\", \"value\": 1e308, \"unit\": \"degC\", \"importance\": 2}, {\"metric\": \"blood_pressure_systolic\", \"value\": 118, \"unit\": \"mmHg\", \"importance\": 3}]},\n"
                + "{\"time\": \"2024-03-02T08:00:00Z\", \"values\": [{\"metric\": \"body_temperature\", \"value\": 36.6, \"unit\": \"degC\", \"importance\": 2}, {\"metric\": \"blood_pressure_systolic\", \"value\": 118, \"unit\": \"mmHg\", \"importance\": 3}]}]\n"
            return Invocation(arguments: box.importing([try box.write("reports.json", json)]))
        },
        // Since issue 36 a number of days beyond the plausible dates is refused naming the flag (NumberRule.dayCount).
        HostileCase("days-last-of-int64-max-does-not-trap", Expectation(exit: 2, stderr: ["--last", "1–51500 days"], stderrNot: ["Fatal"],
                                                                        writes: Sandbox.defaultOutputs)) { box in
            _ = try HostileRunner.launch(try importInput(box, ["--quiet"]))
            return Invocation(arguments: ["days", "--db", box.db, "--last", "9223372036854775807"])
        },
        HostileCase("chart-day-of-year-99999-is-a-usage-error", Expectation(exit: 2, stderr: ["--date is a date YYYY-MM-DD"])) { box in
            _ = try HostileRunner.launch(try importInput(box, ["--quiet"]))
            return Invocation(arguments: ["chart", "day", "--db", box.db, "--date", "99999-01-01"])
        },
        HostileCase("shard-of-zero-shards-is-a-usage-error", refused(["the number of shards must be at least 1"])) { box in
            try importInput(box, ["--shard", "0/0"])
        },
        HostileCase("shard-beyond-the-integers-is-a-usage-error", refused(["expected i/n"])) { box in
            try importInput(box, ["--shard", "18446744073709551615/2"])
        },
    ]

    // MARK: Truncation, nesting and sizes

    static let moreTruncation: [HostileCase] = [
        HostileCase("nightscout-cut-inside-a-key-keeps-what-was-read",
                    Expectation(exit: 3, measurements: 1, quarantined: [.any("the file ends inside this object")])) { box in
            let cut = "[" + goodReading + ",{\"date\": 1775421629000, \"type\": \"sgv\", \"sg"
            return Invocation(arguments: box.importing([try box.write("ns.json", cut)]))
        },
        HostileCase("entries-ndjson-cut-mid-line-keeps-what-was-read",
                    Expectation(exit: 3, events: 1, quarantined: [.line(2, "")])) { box in
            let text = "{\"kind\": \"meal\", \"start\": \"2024-03-01T12:00:00Z\", \"carbs_g\": 60}\n"
                + "{\"kind\": \"insulin\", \"start\": \"2024-03-01T12:05:00Z\", \"units\": 5, \"ty"
            return Invocation(arguments: box.importing([try box.write("entries.ndjson", text)]))
        },
        HostileCase("nightscout-document-nested-100000-levels-is-quarantined-when-forced",
                    Expectation(exit: 3, measurements: 1, quarantined: [.line(1, "nested deeper than 64 levels")], stderrLimit: 16 << 10)) { box in
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let json = "[{\"date\": 1775421029000, \"type\": \"sgv\", \"sgv\": 140, \"x\": \(deep)},\n" + goodReading + "]\n"
            return Invocation(arguments: box.importing([try box.write("ns.json", json)], ["--format", "nightscout"]))
        },
        HostileCase("json-array-nested-100000-levels-is-named-not-a-crash",
                    Expectation(exit: 1, noDatabase: true, stderr: ["unknown format"], stderrLimit: 16 << 10)) { box in
            let deep = "[" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]\n"
            return Invocation(arguments: box.importing([try box.write("deep.json", deep)]))
        },
        HostileCase("nightscout-first-document-with-a-100-kb-note-is-detected",
                    Expectation(exit: 0, measurements: 2)) { box in
            let note = String(repeating: "x", count: 100_000)
            let json = "[{\"date\": 1775421029000, \"type\": \"sgv\", \"sgv\": 162, \"notes\": \"\(note)\", \"direction\": \"Flat\"},\n" + goodReading + "]\n"
            return Invocation(arguments: box.importing([try box.write("ns.json", json)]))
        },
    ]

    // MARK: A full disk without a mount: a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes writes fail with EFBIG

    static func underFileSizeLimit(_ kilobytes: Int, _ arguments: [String]) -> Invocation {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return Invocation(arguments: ["trap '' XFSZ; ulimit -f \(kilobytes); exec $HEALTHPIPE \(quoted)"], shell: true)
    }

    static let moreFullDisk: [HostileCase] = [
        HostileCase("database-beyond-the-file-size-limit-fails-naming-it",
                    Expectation(exit: 1, stderr: ["h.sqlite", "SQLite error"], stderrNot: ["completed in"])) { box in
            underFileSizeLimit(100, box.importing([try box.write("in.csv", CorpusData.clarity)]))
        },
        HostileCase("ndjson-beyond-the-file-size-limit-fails-and-leaves-nothing",
                    Expectation(exit: 1, stderr: ["out.ndjson", "File too large"], stderrNot: ["completed in"])) { box in
            underFileSizeLimit(400, box.importing([try box.write("in.csv", CorpusData.clarity)], ["--ndjson", box.path("out.ndjson")]))
        },
        HostileCase("quarantine-beyond-the-file-size-limit-fails-the-run",
                    // The 281 rejected rows that fit in 600 KB are on disk and counted; the rest are not claimed.
                    Expectation(exit: 1, quarantined: (0..<281).map { _ in .any("unreadable timestamp") },
                                stderr: ["quarantine", "File too large", "not saved"], stderrNot: ["completed in"])) { box in
            let bad = CorpusData.clarity { lines in for i in stride(from: 12, to: 2000, by: 2) { lines[i] = Data(("999,not a row at all,,,,,,x" + String(repeating: "x", count: 2000)).utf8) } }
            // About 2 MB of rejected rows against a 600 KB limit; the database (280 KB) fits.
            return underFileSizeLimit(600, box.importing([try box.write("in.csv", bad)]))
        },
    ]

    // MARK: The terminal

    static let moreTerminal: [HostileCase] = [
        HostileCase("file-name-with-terminal-escapes-is-shown-escaped",
                    Expectation(exit: 1, noDatabase: true, stderr: ["\\u{1b}[2J"], stderrNot: ["\u{1B}"])) { box in
            Invocation(arguments: box.importing([try box.write("g\u{1B}[2J.bin", Data("garbage\u{1B}[2J\n".utf8))]))
        },
        HostileCase("cell-with-terminal-escapes-is-shown-escaped",
                    Expectation(exit: 3, measurements: 8, quarantined: [.line(21, "is not a number")], stderr: ["\\u{1b}]0;pwned"],
                                stderrNot: ["\u{1B}", "\u{07}"])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", clarityWith(["999,2024-01-01T00:00:00,EGV,,,,G7,\u{1B}]0;pwned\u{07}\u{1B}[2J,,,,"]))]))
        },
        HostileCase("xml-source-name-with-bidi-override-is-shown-escaped",
                    Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "plausible range")], stderrNot: ["\u{202E}"])) { box in
            let parts = CorpusData.appleExport(around: "@BAD@").components(separatedBy: "@BAD@")
            let data = parts[0] + glucose("0", source: "Meter\u{202E}gnp.exe") + parts[1]
            return Invocation(arguments: box.importing([try box.write("export.xml", data)]))
        },
    ]

    // MARK: The CLI's contract

    static let moreContract: [HostileCase] = [
        HostileCase("unknown-subcommand-exits-2", Expectation(exit: 2, stderr: ["Unexpected argument 'bogus'"])) { _ in
            Invocation(arguments: ["bogus"])
        },
        HostileCase("import-without-files-exits-2", refused(["Missing expected argument"])) { box in
            Invocation(arguments: ["import", "--db", box.db])
        },
        HostileCase("on-error-maybe-exits-2", refused(["'maybe' is invalid for '--on-error", "'fail', 'skip' or 'quarantine'"])) { box in try importInput(box, ["--on-error", "maybe"]) },
        HostileCase("timezone-on-mars-exits-2", refused(["unknown time zone 'Mars/Olympus'"])) { box in
            Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", box.db, "--timezone", "Mars/Olympus"])
        },
        HostileCase("timezone-plus-25-hours-exits-2", refused(["unknown time zone '+25:00'"])) { box in
            Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", box.db, "--timezone", "+25:00"])
        },
        HostileCase("format-that-does-not-exist-exits-2", refused(["unknown source type 'no-such-format'"])) { box in
            try importInput(box, ["--format", "no-such-format"])
        },
        HostileCase("empty-database-path-names-the-folder", Expectation(exit: 1, noDatabase: true, stderr: ["cannot write the database"])) { box in
            Invocation(arguments: ["import", try box.write("in.csv", CorpusData.clarity), "--db", "", "--timezone", "UTC"])
        },
        HostileCase("two-thousand-inputs-with-one-missing-import-the-rest",
                    Expectation(exit: 1, measurements: 2000, stderr: ["no-such.csv"], stderrLimit: 1 << 20)) { box in
            var files: [String] = []
            for i in 0..<2000 {
                let t = String(format: "2024-01-%02dT%02d:%02d:00", 1 + i / 288, (i / 12) % 24, (i % 12) * 5)
                files.append(try box.write("many/f\(i).csv", clarityHeader + "\n1,\(t),EGV,,,,G7,\(100 + i % 50),,,,\n"))
            }
            return Invocation(arguments: box.importing(files.prefix(1000) + [box.path("no-such.csv")] + files.dropFirst(1000),
                                                       ["--format", "dexcom-clarity", "--quiet"]))
        },
    ]
}
