import Foundation
import Testing

/// Seed 004's personal health monitor, as its user lives it, driven through the real binary:
/// reports with importance, the daily summary report, filters, the reminder and its snooze, the
/// threshold on an average, an illness episode in the day table.
@Suite struct HealthLogStoryTests {
    /// Three reports in one day: the summary report holds, per value, their average (n, min, max,
    /// highest importance), in canonical units whatever unit each report was typed in.
    @Test func threeReportsInOneDayMakeASummaryOfTheirAverage() throws {
        let log = HealthLog()
        try log.report("2024-03-05 08:00", ["body_temperature=37.8:4", "systolic=135:3"], note: "woke up warm")
        try log.report("2024-03-05 13:00", ["temperature=100.4degF:5", "systolic=128:3", "pain=4:5"])
        try log.report("2024-03-05 20:00", ["temp=38.4°C:4", "blood_pressure_systolic=141mmHg:2"])
        let r = try log.ok(["reports", "summary", "--json"])
        let days = try HealthLog.objects(r.stdout)
        #expect(days.count == 1)
        let day = try #require(days.first)
        #expect(day["date"] as? String == "2024-03-05")
        #expect(day["reports"] as? Int == 3)
        let values = try #require(day["values"] as? [[String: Any]])
        let temp = try #require(values.first { $0["metric"] as? String == "body_temperature" })
        let f = (100.4 - 32) * 5 / 9
        #expect(abs((temp["mean"] as! Double) - (37.8 + f + 38.4) / 3) < 1e-9)
        #expect(temp["n"] as? Int == 3)
        #expect(temp["min"] as? Double == 37.8 && temp["max"] as? Double == 38.4)
        #expect(temp["max_importance"] as? Int == 5)
        #expect(temp["unit"] as? String == "degC")
        let sys = try #require(values.first { $0["metric"] as? String == "blood_pressure_systolic" })
        #expect(abs((sys["mean"] as! Double) - (135 + 128 + 141) / 3.0) < 1e-9 && sys["max_importance"] as? Int == 3)
        let pain = try #require(values.first { $0["metric"] as? String == "pain" })
        #expect(pain["n"] as? Int == 1 && pain["mean"] as? Double == 4)
        // The stored summary is the stored reports' average, as any SQLite client computes it.
        #expect(log.query("SELECT metric, n, round(mean, 9) FROM report_days ORDER BY metric")
                == log.query("SELECT metric, count(*), round(avg(value), 9) FROM report_values GROUP BY metric ORDER BY metric"))
        // The values are readings of their metric too: the daily summary sees them.
        #expect(log.scalar("SELECT n FROM daily_summaries WHERE metric = 'body_temperature' AND day = '2024-03-05'") == "3")
        let text = try log.ok(["reports", "summary"]).stdout
        #expect(text.contains("2024-03-05  3 reports") && text.contains("body_temperature"))
    }

    @Test func reportsFilteredByImportanceFive() throws {
        let log = HealthLog()
        try log.report("2024-03-05 08:00", ["body_temperature=37.8:4", "systolic=135:3"])
        try log.report("2024-03-05 13:00", ["temperature=38.9:5", "pain=7:5", "systolic=128:3"])
        try log.report("2024-03-06 08:00", ["body_temperature=37.1:2", "mood=6:5"])
        let five = try HealthLog.objects(try log.ok(["reports", "list", "--importance", "5", "--json"]).stdout)
        #expect(five.map { $0["id"] as? String } == ["20240305-1300", "20240306-0800"])
        let values = five.flatMap { $0["values"] as! [[String: Any]] }
        #expect(values.allSatisfy { $0["importance"] as? Int == 5 })
        #expect(Set(values.map { $0["metric"] as! String }) == ["body_temperature", "pain", "mood"])
        let atLeast4 = try HealthLog.objects(try log.ok(["reports", "list", "--min-importance", "4", "--metric", "temperature", "--json"]).stdout)
        #expect(atLeast4.map { $0["id"] as? String } == ["20240305-0800", "20240305-1300"])
        let oneDay = try log.ok(["reports", "list", "--from", "2024-03-06", "--to", "2024-03-06"]).stdout
        #expect(oneDay.split(separator: "\n").count == 1 && oneDay.contains("mood 6 score (5)"))
    }

    static let reminderSettings = """
        predict: false
        alerts: false
        reports: { reminder: "20:00" }
        """

    /// A reminder due at 20:00 when no report was made that day, and silenced by a snooze to 21:30.
    @Test func reminderDueAtEightAndSilencedByASnooze() throws {
        let log = HealthLog()
        try log.report("2024-03-10 08:00", ["body_temperature=36.8:2", "systolic=120:2"])
        try log.settings(Self.reminderSettings)
        let unsnoozed = log.dir.appendingPathComponent("unsnoozed.sqlite")
        try FileManager.default.copyItem(at: log.db, to: unsnoozed)

        #expect(try log.run(["alerts", "check", "--now", "2024-03-11 19:59"]).code == 0)
        try log.ok(["alerts", "snooze", "--until", "21:30", "--now", "2024-03-11 19:50"])
        let silenced = try log.run(["alerts", "check", "--now", "2024-03-11 20:05"])
        #expect(silenced.code == 0 && silenced.stdout.isEmpty, "\(silenced.stdout)")
        #expect(try log.run(["alerts", "check", "--now", "2024-03-11 21:29"]).code == 0)
        let due = try log.run(["alerts", "check", "--now", "2024-03-11 21:31"])
        #expect(due.code == 1)
        #expect(due.stdout.contains("reminder: no health report yet today (2024-03-11); due at 21:30 after a snooze"))
        // Announced once per due time: a check every few minutes notifies once.
        #expect(try log.run(["alerts", "check", "--now", "2024-03-11 21:36"]).code == 0)

        // Without the snooze the same reminder is due at 20:00.
        let plain = try E2E.run(["alerts", "check", "--db", unsnoozed.path, "--timezone", "Europe/Rome", "--now", "2024-03-11 20:05", "--json"])
        #expect(plain.code == 1)
        let o = try #require(try HealthLog.objects(plain.stdout).first)
        #expect(o["kind"] as? String == "reminder" && o["due"] as? String == "2024-03-11T20:00:00+01:00")
        // A report made that day settles it.
        #expect(try E2E.run(["reports", "add", "--db", unsnoozed.path, "--timezone", "Europe/Rome", "--at", "2024-03-11 20:10",
                             "--value", "body_temperature=36.9:2", "--value", "systolic=121:2"]).code == 0)
        #expect(try E2E.run(["alerts", "check", "--db", unsnoozed.path, "--timezone", "Europe/Rome", "--now", "2024-03-11 20:15"]).code == 0)
        // …and the late day is in the store's reminder alerts, from 20:00 to the report.
        #expect(E2E.query(unsnoozed, "SELECT kind, datetime(start + utc_offset, 'unixepoch'), datetime(\"end\" + utc_offset, 'unixepoch') FROM alerts")
                == [["reminder", "2024-03-11 20:00:00", "2024-03-11 20:10:00"]])
        // A snooze ends later the same day.
        #expect(try log.run(["alerts", "snooze", "--until", "2024-03-12 01:00", "--now", "2024-03-11 20:00"]).code == 2)
    }

    /// The 7-day average of an importance-4 value crossing its threshold raises exactly one alert,
    /// announced once; readings of lower importance do not count.
    @Test func sevenDayAverageCrossingItsThresholdRaisesOneAlert() throws {
        let log = HealthLog()
        // Settings are stored in a database: the first entry creates it.
        try log.report("2024-02-20 08:00", ["systolic=120:2", "pain=1:1"])
        try log.settings("""
            predict: false
            alerts: false
            reports:
              thresholds:
                - { metric: body_temperature, above: 37.5, days: 7, min_importance: 4 }
            """)
        var raised: [String] = []
        for d in 1...10 {
            let day = String(format: "2024-03-%02d", d)
            let morning = d >= 5 ? "38.2" : "37.0"
            let r = try log.ok(["reports", "add", "--at", day + " 08:00", "--value", "body_temperature=\(morning):4", "--value", "pain=2:1"])
            if r.stdout.contains("alert:") { raised.append(day) }
            // High evening readings of importance 3 are not watched.
            try log.report(day + " 21:00", ["body_temperature=39.5:3", "pain=2:1"])
        }
        // (4 × 37.0 + 3 × 38.2) / 7 = 37.51 on the 7th: the first average above 37.5.
        #expect(raised == ["2024-03-07"])
        let rows = log.query("""
            SELECT kind, metric, datetime(start + utc_offset, 'unixepoch'), datetime("end" + utc_offset, 'unixepoch'), threshold
              FROM alerts WHERE kind LIKE 'average%'
            """)
        #expect(rows == [["average_above", "body_temperature", "2024-03-07 08:00:00", "2024-03-10 08:00:00", "37.5"]])
        let check = try log.run(["alerts", "check", "--now", "2024-03-10 09:00"])
        #expect(check.code == 1)
        #expect(check.stdout.contains("alert: 7-day average of body_temperature (importance ≥ 4) is 38.03 °C, above 37.5 °C since 2024-03-07 08:00"))
        #expect(try log.run(["alerts", "check", "--now", "2024-03-10 09:15"]).code == 0)
        try log.expectExact()
    }

    /// An illness episode of three days flags three days of the day table.
    @Test func illnessEpisodeOfThreeDaysFlagsThreeDays() throws {
        let log = HealthLog()
        for d in 4...9 { try log.report(String(format: "2024-03-%02d 08:00", d), ["body_temperature=37.0:2", "systolic=120:2"]) }
        try log.ok(["add", "episode", "illness", "--start", "2024-03-05 09:00"])
        // Open: it lasts until ended, so every later day with data is flagged.
        #expect(try Self.illnessDays(log) == ["2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09"])
        #expect(try log.run(["add", "episode", "illness", "--start", "2024-03-06 10:00"]).code == 2)  // one open at a time
        let end = try log.ok(["episode", "end", "illness", "--at", "2024-03-07 18:00"])
        #expect(end.stdout.contains("(3 days)"))
        #expect(try Self.illnessDays(log) == ["2024-03-05", "2024-03-06", "2024-03-07"])
        #expect(try log.run(["episode", "end", "illness"]).code == 1)
        try log.expectExact()

        // A closed stress episode over days without any data still flags each of them.
        let other = HealthLog()
        try other.ok(["add", "episode", "stress", "--start", "2024-04-01 10:00", "--end", "2024-04-03 09:00"])
        let stress = try HealthLog.objects(try other.ok(["days", "--stress", "--json"]).stdout).first?["rows"] as? [[String: Any]]
        #expect(stress?.map { $0["date"] as! String } == ["2024-04-03", "2024-04-02", "2024-04-01"])
        try other.expectExact()
    }

    static func illnessDays(_ log: HealthLog) throws -> [String] {
        let rows = try #require(try HealthLog.objects(try log.ok(["days", "--illness", "--json"]).stdout).first?["rows"] as? [[String: Any]])
        return rows.map { $0["date"] as! String }.sorted()
    }
}
