import Foundation
import Testing

/// `healthpipe alerts set`: the report reminder and thresholds changed on their own, checked by the
/// settings parser, with only the report alerts recomputed — and the store still what a clean
/// `reaggregate` with the same settings file makes.
@Suite struct AlertsSetTests {
    /// Ten days of morning temperatures (fever from the 5th); on the 4th and 8th the only report is at 21:00.
    static func tenDays() throws -> HealthLog {
        let log = HealthLog()
        for d in 1...10 {
            let at = String(format: "2024-03-%02d ", d) + ([4, 8].contains(d) ? "21:00" : "08:00")
            try log.report(at, ["body_temperature=\(d >= 5 ? "38.4" : "36.9"):4", "pain=2:1"])
        }
        return log
    }

    func set(_ log: HealthLog, _ args: [String]) throws -> E2E.Result {
        try E2E.run(["alerts", "set", "--db", log.db.path] + args)
    }

    func alerts(_ log: HealthLog, _ kind: String) -> [[String]] {
        log.query("""
            SELECT datetime(start + utc_offset, 'unixepoch'), datetime("end" + utc_offset, 'unixepoch') FROM alerts
             WHERE kind = '\(kind)' ORDER BY start
            """)
    }

    @Test func reminderTimeDecidesWhichDaysHaveReminderAlerts() throws {
        let log = try Self.tenDays()
        #expect(alerts(log, "reminder").isEmpty)
        let r = try set(log, ["--reminder", "20:00"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("reminder: 20:00"))
        #expect(alerts(log, "reminder") == [["2024-03-04 20:00:00", "2024-03-04 21:00:00"], ["2024-03-08 20:00:00", "2024-03-08 21:00:00"]])
        // A 21:30 reminder: the 21:00 reports were in time.
        #expect(try set(log, ["--reminder", "21:30"]).code == 0)
        #expect(alerts(log, "reminder").isEmpty)
        #expect(try set(log, ["--reminder", "07:00"]).code == 0)
        #expect(alerts(log, "reminder").count == 10)
        #expect(try set(log, ["--reminder", "off"]).code == 0)
        #expect(alerts(log, "reminder").isEmpty)
        try log.expectExact()
    }

    @Test func thresholdCreatesAverageAboveAlertsAndCanBeRemoved() throws {
        let log = try Self.tenDays()
        let r = try set(log, ["--threshold", "temperature above 37.5 days=3 importance=4"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("threshold: body_temperature above 37.5"))
        // (36.9 + 38.4 + 38.4) / 3 = 37.9 on the 6th: the first 3-day average above 37.5, to the last report.
        #expect(alerts(log, "average_above") == [["2024-03-06 08:00:00", "2024-03-10 08:00:00"]])
        // Importance 5 only: no value is that important.
        #expect(try set(log, ["--remove-threshold", "body_temperature above", "--threshold", "body_temperature above 37.5 importance=5"]).code == 0)
        #expect(alerts(log, "average_above").isEmpty)
        #expect(try set(log, ["--clear-thresholds"]).code == 0)
        #expect(log.scalar("SELECT options FROM derivation_settings WHERE step = 'reports'") == "{}")
    }

    @Test func badThresholdIsRefusedWithTheSettingsParsersMessageAndChangesNothing() throws {
        let log = try Self.tenDays()
        #expect(try set(log, ["--reminder", "20:00", "--threshold", "body_temperature above 37.5"]).code == 0)
        let before = (log.query("SELECT * FROM derivation_settings ORDER BY step"), log.query("SELECT * FROM alerts ORDER BY start"))
        for (args, message) in [
            (["--threshold", "pain above 3 days=400"], "--threshold: threshold on pain: days 400 is not a whole number 1–366 days"),
            (["--threshold", "body_temperature above 39"], "two 'above' thresholds on body_temperature: keep one"),
            (["--threshold", "pain above 3 importance=9"], "threshold on pain: min_importance 9 is not a whole number 1–5"),
            (["--threshold", "glucose below 3kg"], "threshold on glucose:"),
            (["--reminder", "25:00"], "--reminder: reminder '25:00' is not a time of day such as 20:00"),
            (["--threshold", "pain over 3"], "write metric above|below VALUE[unit]"),
            (["--remove-threshold", "pain above"], "no 'above' threshold on pain is stored"),
            ([], "nothing to change"),
        ] {
            let r = try set(log, args)
            #expect(r.code == 2, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(log.query("SELECT * FROM derivation_settings ORDER BY step") == before.0)
            #expect(log.query("SELECT * FROM alerts ORDER BY start") == before.1)
        }
    }

    /// After `alerts set`, the derived rows and stored settings equal those of a copy re-aggregated
    /// with the settings file that says the same.
    /// Glucose with every glucose step (the grid, forecasts, glucose alerts) is in the store too: none of it moves.
    @Test func derivedRowsEqualACleanReaggregateWithTheSameSettings() throws {
        let log = try Self.tenDays()
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.csv")
        let imported = try E2E.run(["import", clarity.path, "--db", log.db.path, "--timezone", "Europe/Rome", "--quiet"])
        #expect(imported.code == 0, "\(imported.stderr)")
        let glucoseSteps = """
            resample: { step_minutes: 5, max_gap_minutes: 45 }
            predict: { model: ridge, horizon: 30m }
            alerts: { low: 70, high: 180, model: ridge }

            """
        try log.settings(glucoseSteps + "reports: { reminder: \"09:00\" }")
        let grid = log.scalar("SELECT count(*) FROM measurements WHERE flags & 128 != 0")
        #expect((Int(grid) ?? 0) > 0 && E2E.count(log.db, "forecasts") > 0)
        let copy = log.dir.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: log.db, to: copy)
        #expect(try set(log, ["--reminder", "20:00", "--threshold", "body_temperature above 37.5 days=3",
                              "--threshold", "pain below 3 days=2 importance=1"]).code == 0)
        #expect(log.scalar("SELECT count(*) FROM measurements WHERE flags & 128 != 0") == grid)
        let file = log.dir.appendingPathComponent("settings.yml")
        try E2E.write(glucoseSteps + """
            reports:
              reminder: "20:00"
              thresholds:
                - { metric: body_temperature, above: 37.5, days: 3 }
                - { metric: pain, below: 3, days: 2, min_importance: 1 }
            """, to: file)
        let r = try E2E.run(["reaggregate", "--db", copy.path, "--config", file.path, "--quiet"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(!alerts(log, "average_below").isEmpty && !alerts(log, "reminder").isEmpty)
        #expect(DerivedSnapshot(log.db).difference(from: DerivedSnapshot(copy)) == nil)
        let fingerprints = "SELECT step, fingerprint FROM derivation_settings ORDER BY step"
        #expect(log.query(fingerprints) == E2E.query(copy, fingerprints))
    }
}
