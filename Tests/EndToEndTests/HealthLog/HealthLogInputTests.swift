import Foundation
import Testing

/// Bad input as issue 13 lists it: a clear message naming the field, exit 2, nothing written;
/// a missing id exits 1 naming it; every entry is idempotent and `--id` upserts.
@Suite struct HealthLogInputTests {
    /// Each refusal: exit 2, the flag and the reason in the message, and no database written.
    @Test(arguments: [
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=37.8:4"], "--value", "at least 2 values"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=37.8:6", "--value", "pain=2:1"], "--value", "importance 6 is outside 1–5"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=37.8:0", "--value", "pain=2:1"], "--value", "importance 0 is outside 1–5"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=37.8", "--value", "pain=2:1"], "--value", "has no importance"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=310K:3", "--value", "pain=2:1"], "--value", "unknown unit 'K'"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "weight=70stone:3", "--value", "pain=2:1"], "--value", "unknown unit 'stone'"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "pain=12:3", "--value", "mood=2:1"], "--value", "0–10"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--value", "pain=2:3", "--value", "pain=3:1"], "--value", "given twice"),
        (["reports", "add", "--at", "2099-03-05 08:00", "--value", "pain=2:3", "--value", "mood=3:1"], "--at", "more than a day in the future"),
        (["reports", "add", "--at", "tomorrowish", "--value", "pain=2:3", "--value", "mood=3:1"], "--at", "not a time"),
        (["reports", "add", "--at", "2024-03-05 08:00", "--id", "a b", "--value", "pain=2:3", "--value", "mood=3:1"], "--id", "may hold only"),
        (["add", "episode", "illness", "--start", "2024-03-06 09:00", "--end", "2024-03-05 10:00"], "--end", "before the start"),
        (["add", "exercise", "--minutes", "45", "--intensity", "extreme", "--at", "2024-03-05 17:00"], "'extreme' is invalid for '--intensity", "'light', 'medium' or 'heavy'"),
        (["add", "exercise", "--minutes=-5", "--at", "2024-03-05 17:00"], "--minutes", "is not 0–20160 minutes"),
        (["add", "insulin", "0", "--at", "2024-03-05 08:00"], "units", "must be above 0"),
        (["add", "meal", "--carbs=-3", "--at", "2024-03-05 08:00"], "--carbs", "is not 0–5000 g"),
        (["add", "insulin", "4", "--at", "2099-01-01 08:00"], "--at", "more than a day in the future"),
        (["add", "episode", "illness", "--start", "2024-03-06 09:00", "--end", "2099-03-05 10:00"], "--end", "more than a day in the future"),
        (["add", "episode", "flu", "--start", "2024-03-06 09:00"], "'flu' is invalid for '<kind>'", "'illness' and 'stress'"),
    ])
    func refusedWithTheFieldAndNothingWritten(args: [String], field: String, reason: String) throws {
        let log = HealthLog()
        let r = try log.run(args)
        #expect(r.code == 2, "\(args): \(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains(field) && r.stderr.contains(reason), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log.db.path), "\(args) created the database")
    }

    /// In a database with entries, a refused entry changes no row.
    @Test func aRefusedEntryChangesNothingStored() throws {
        let log = HealthLog()
        try log.report("2024-03-05 08:00", ["body_temperature=37.8:4", "systolic=135:3"])
        try log.ok(["add", "insulin", "4.5", "--at", "2024-03-05 08:10"])
        let before = Self.everything(log)
        for args in [["reports", "add", "--at", "2024-03-05 09:00", "--value", "pain=3:9", "--value", "mood=2:2"],
                     ["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=39:4", "--value", "systolic=135:3"],
                     ["reports", "edit", "20240305-0800", "--remove", "systolic"],
                     ["reports", "edit", "20240305-0800", "--value", "systolic=135:8"],
                     ["add", "insulin", "6", "--at", "2024-03-05 08:10"],
                     ["entries", "edit", "insulin-20240305-0810", "--carbs", "40"]] {
            let r = try log.run(args)
            #expect(r.code == 2, "\(args): \(r.stderr)")
        }
        #expect(Self.everything(log) == before)
        let conflict = try log.run(["reports", "add", "--at", "2024-03-05 08:00", "--value", "body_temperature=39:4", "--value", "systolic=135:3"])
        #expect(conflict.stderr.contains("already stored with other values (id 20240305-0800)"))
    }

    @Test func aMissingIdExitsOneNamingIt() throws {
        let log = HealthLog()
        try log.report("2024-03-05 08:00", ["body_temperature=37.8:4", "systolic=135:3"])
        for args in [["reports", "edit", "nope-1", "--value", "pain=2:2"], ["reports", "delete", "nope-1"],
                     ["entries", "edit", "nope-1", "--units", "3"], ["entries", "delete", "nope-1"]] {
            let r = try log.run(args)
            #expect(r.code == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("'nope-1'"), "\(r.stderr)")
        }
        #expect(try log.run(["favourite", "remove", "2024-03-05"]).code == 1)
    }

    @Test func everyEntryIsIdempotentAndIdsUpsert() throws {
        let log = HealthLog()
        for _ in 0..<2 {
            try log.report("2024-03-05 08:00", ["body_temperature=37.8:4", "systolic=135:3"], note: "warm")
            try log.ok(["add", "insulin", "4.5", "--at", "2024-03-05 08:10"])
            try log.ok(["add", "meal", "--carbs", "45", "--protein", "20", "--fat", "12", "--name", "Pasta", "--at", "2024-03-05 12:30"])
            try log.ok(["add", "exercise", "--name", "Cycling", "--minutes", "45", "--intensity", "medium", "--at", "2024-03-05 17:00"])
            try log.ok(["add", "episode", "stress", "--start", "2024-03-05 09:00", "--end", "2024-03-05 11:00"])
        }
        let first = Self.everything(log)
        #expect(log.scalar("SELECT count(*) FROM reports") == "1" && log.scalar("SELECT count(*) FROM manual_entries") == "4")
        #expect(log.scalar("SELECT count(*) FROM events") == "4")
        // --id replaces what the id holds; a script can upsert the same id again and again.
        for units in ["5", "5", "6"] { try log.ok(["add", "insulin", units, "--at", "2024-03-05 08:10", "--id", "insulin-20240305-0810"]) }
        #expect(log.query("SELECT insulin_u FROM events WHERE kind = 'insulin'") == [["6.0"]])
        try log.ok(["reports", "add", "--at", "2024-03-05 08:00", "--id", "20240305-0800", "--value", "body_temperature=38.1:5",
                    "--value", "pain=3:2"])
        #expect(log.query("SELECT metric, value, importance FROM report_values ORDER BY metric")
                == [["body_temperature", "38.1", "5"], ["pain", "3.0", "2"]])
        // The replaced value's reading went with it.
        #expect(log.query("SELECT metric FROM measurements WHERE source = 'report' ORDER BY metric") == [["body_temperature"], ["pain"]])
        #expect(Self.everything(log) != first)
        try log.expectExact()
    }

    @Test func editingAndDeletingKeepTheStoreExact() throws {
        let log = HealthLog()
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path
        #expect([0, 3].contains(try E2E.run(["import", clarity, "--db", log.db.path, "--timezone", "Europe/Rome", "--quiet"]).code))
        let day = log.scalar("SELECT min(day) FROM daily_summaries WHERE metric = 'glucose'")
        try log.report("\(day) 08:00", ["glucose=6.1mmol/L:3", "body_temperature=37.0:2"])
        try log.report("\(day) 20:00", ["glucose=150:4", "systolic=120:2"])
        try log.ok(["add", "meal", "--carbs", "60", "--at", "\(day) 12:30"])
        try log.ok(["add", "episode", "illness", "--start", "\(day) 09:00"])
        try log.expectExact()
        // The report's glucose is a reading of that day (converted, rounded, classified).
        #expect(log.scalar("SELECT value || ' ' || band FROM measurements WHERE source = 'report' AND metric = 'glucose' ORDER BY start LIMIT 1")
                == "110.0 normal")
        let compact = day.replacingOccurrences(of: "-", with: "")
        try log.ok(["reports", "edit", "\(compact)-0800", "--value", "glucose=4.0mmol/L:5",
                    "--at", "\(day) 07:30"])
        try log.expectExact()
        try log.ok(["entries", "edit", "meal-\(day.replacingOccurrences(of: "-", with: ""))-1230", "--carbs", "75", "--name", "Risotto"])
        try log.expectExact()
        try log.ok(["episode", "end", "illness", "--at", "\(day) 23:00"])
        try log.expectExact()
        try log.ok(["reports", "delete", "\(day.replacingOccurrences(of: "-", with: ""))-2000"])
        try log.expectExact()
        try log.ok(["entries", "delete", "meal-\(day.replacingOccurrences(of: "-", with: ""))-1230"])
        try log.ok(["entries", "delete", "illness-\(day.replacingOccurrences(of: "-", with: ""))-0900"])
        try log.expectExact()
        #expect(log.scalar("SELECT count(*) FROM report_days WHERE day = '\(day)'") == "2")
        #expect(log.scalar("SELECT carbs_g FROM daily_summaries WHERE day = '\(day)' AND metric = 'glucose'")
                == log.scalar("SELECT total(carbs_g) FROM events WHERE date(start + utc_offset, 'unixepoch') = '\(day)'"))
    }

    /// Every table a health-log entry touches, as text.
    static func everything(_ log: HealthLog) -> [[String]] {
        ["reports", "report_values", "manual_entries", "events", "measurements", "report_days", "daily_summaries", "alerts"].flatMap { t in
            log.query("SELECT '\(t)', * FROM \(t) ORDER BY 2, 3, 4").map { $0.filter { !$0.hasPrefix("17") && !$0.hasPrefix("18") } }
        }
    }
}
