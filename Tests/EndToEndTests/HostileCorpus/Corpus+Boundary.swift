import CSQLite
import Foundation

/// Round 3, class 2 — values in range at the boundary: every source's records pass `RecordGate`
/// (instants within 1960-01-01…2100-01-01, an end not before the start), the health log's values
/// have ranges, views skip what an older store still holds, and large numbers never trap.
extension HostileCorpus {
    /// Nightscout entries: two good readings, one at JavaScript's last date (275760-09-13) and one in 1696.
    static let nightscoutOutOfRange = """
        [
        {"date": 1775421029000, "type": "sgv", "sgv": 162, "utcOffset": 0},
        {"date": 1775420729000, "type": "sgv", "sgv": 150, "utcOffset": 0},
        {"date": 8640000000000000, "type": "sgv", "sgv": 140, "utcOffset": 0},
        {"date": -8640000000000, "type": "sgv", "sgv": 130, "utcOffset": 0}
        ]

        """

    /// A store as an older HealthPipe left it: two Nightscout readings plus one, and a day summary, in the year 275760.
    static func storeWithAFarFutureReading(_ box: Sandbox) throws {
        let good = "[\n{\"date\": 1775421029000, \"type\": \"sgv\", \"sgv\": 162, \"utcOffset\": 0},\n"
            + "{\"date\": 1775420729000, \"type\": \"sgv\", \"sgv\": 150, \"utcOffset\": 0}\n]\n"
        _ = try HostileRunner.launch(Invocation(arguments: box.importing([try box.write("ns.json", good)], ["--quiet"])))
        try box.execute("""
            INSERT INTO measurements (subject, metric, source, start, "end", value, utc_offset, unit, flags, band)
              SELECT subject, metric, source, 8640000000000, 8640000000000, value, utc_offset, unit, flags, band
              FROM measurements WHERE metric = 'glucose' LIMIT 1;
            INSERT INTO daily_summaries
              SELECT subject, '275760-09-13', metric, unit, n, min, max, mean, sd, hypo, hyper, carbs_g, insulin_u, exercise_min, illness, stress, total, total_sources
              FROM daily_summaries LIMIT 1;
            """)
    }

    static let boundary: [HostileCase] = [
        HostileCase("nightscout-dates-beyond-2100-and-before-1960-are-quarantined",
                    // 8.64e15 is read as microseconds (from 1e14 on, docs/vendors/nightscout.md): 2243, still refused;
                    // a negative epoch is no time an uploader writes.
                    // Both are the source's own rejections since issue 36 (NumberRule.readingEpochSeconds), each
                    // with the document as its raw text.
                    Expectation(exit: 3, measurements: 2, quarantined: [.line(4, "unreadable date '8640000000000000.0'", raw: "\"sgv\": 140"),
                                                                        .line(5, "unreadable date '-8640000000000'")])) { box in
            Invocation(arguments: box.importing([try box.write("ns.json", nightscoutOutOfRange)]))
        },
        HostileCase("chart-day-of-a-store-holding-a-year-275760-reading",
                    Expectation(exit: 0, stderrNot: ["Fatal", "cannot be converted"])) { box in
            try storeWithAFarFutureReading(box)
            return Invocation(arguments: ["chart", "day", "--db", box.db])
        },
        HostileCase("page-of-a-store-holding-a-year-275760-reading",
                    Expectation(exit: 0, stderrNot: ["Fatal"], writes: Sandbox.defaultOutputs.union(["p.html"]))) { box in
            try storeWithAFarFutureReading(box)
            return Invocation(arguments: ["page", "--db", box.db, "-o", box.path("p.html")])
        },
        HostileCase("days-of-a-store-holding-a-year-275760-day",
                    Expectation(exit: 0, stderrNot: ["Fatal"])) { box in
            try storeWithAFarFutureReading(box)
            return Invocation(arguments: ["days", "--db", box.db])
        },
        HostileCase("health-report-dated-year-0000-is-refused",
                    Expectation(exit: 2, noDatabase: true, stderr: ["--at", "plausible dates"], writes: [])) { box in
            Invocation(arguments: ["reports", "add", "--db", box.db, "--at", "0000-01-01 10:00", "--value", "pain=3:3", "--value", "mood=4:2",
                                   "--timezone", "UTC"])
        },
        HostileCase("health-log-weight-beyond-any-scale-is-refused",
                    Expectation(exit: 2, noDatabase: true, stderr: ["body_mass", "0.2–700 kg"], writes: [])) { box in
            Invocation(arguments: ["reports", "add", "--db", box.db, "--value", "weight=5000:3", "--value", "pain=3:3", "--timezone", "UTC"])
        },
        HostileCase("health-log-custom-value-of-300-digits-is-refused",
                    Expectation(exit: 2, noDatabase: true, stderr: ["custom_x"], stderrLimit: 2000, writes: [])) { box in
            Invocation(arguments: ["reports", "add", "--db", box.db, "--value", "custom_x=\(String(repeating: "9", count: 300)):3",
                                   "--value", "pain=3:3", "--timezone", "UTC"])
        },
        HostileCase("history-offset-beyond-the-integers-is-a-usage-error",
                    Expectation(exit: 2, stderr: ["--offset"], stderrNot: ["Fatal"])) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["chart", "history", "--db", box.db, "--offset", "9223372036854775807"])
        },
    ]
}

extension Sandbox {
    /// Runs SQL on the sandbox's database (a setup step: a store as an older build left it).
    func execute(_ sql: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(db, &handle) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        defer { sqlite3_close(handle) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw NSError(domain: "sqlite", code: 1, userInfo: [NSLocalizedDescriptionKey: text])
        }
    }
}
