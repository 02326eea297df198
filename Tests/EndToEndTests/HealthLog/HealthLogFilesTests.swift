import Foundation
import Testing

/// Reports and entries from files: the health-reports CSV (long and wide), JSON, YAML adapters with
/// importance and notes, and the episode markers of Clarity and CareLink exports.
@Suite struct HealthLogFilesTests {
    static let folder = E2E.samples.appendingPathComponent("health-reports")
    static let long = folder.appendingPathComponent("health_log_long.csv").path
    static let wide = folder.appendingPathComponent("health_log_wide.csv").path
    static let json = folder.appendingPathComponent("health_log.json").path

    @Test func theSampleLayoutsAreDetectedAndHoldTheSameReports() throws {
        var lists: [String] = []
        for file in [Self.long, Self.wide] {
            let log = HealthLog()
            let r = try log.ok(["import", file])
            #expect(log.scalar("SELECT format FROM imports") == (file.hasSuffix("json") ? "health-reports-json" : "health-reports"), "\(r.stderr)")
            #expect(log.scalar("SELECT count(*) FROM reports") == "32")
            // Pain appears only with importance 5 in the wide file's fever days; compare temperature and pressure.
            lists.append(try log.ok(["reports", "list", "--metric", "body_temperature"]).stdout
                         + (try log.ok(["reports", "list", "--metric", "systolic"]).stdout))
            try log.expectExact()
        }
        #expect(lists[0] == lists[1])
        let log = HealthLog()
        try log.ok(["import", Self.json])
        #expect(log.scalar("SELECT format FROM imports") == "health-reports-json")
        #expect(try log.ok(["reports", "list", "--metric", "body_temperature"]).stdout
                + (try log.ok(["reports", "list", "--metric", "systolic"]).stdout) == lists[0])
        #expect(log.scalar("SELECT count(*) FROM manual_entries") == "15")
    }

    @Test func theLongSampleCarriesEntriesAndTheFever() throws {
        let log = HealthLog()
        try log.ok(["import", Self.long])
        #expect(log.query("SELECT kind, count(*) FROM manual_entries GROUP BY kind ORDER BY kind")
                == [["episode", "1"], ["exercise", "7"], ["insulin", "14"], ["meal", "14"]])
        // The illness row has no end: it is a marker lasting daily's episode_length (24 h).
        let days = try HealthLog.objects(try log.ok(["days", "--illness", "--json"]).stdout).first?["rows"] as? [[String: Any]]
        #expect(days?.map { $0["date"] as! String } == ["2024-03-06", "2024-03-05"])
        // Re-importing changes nothing and brings nothing up to date.
        let report = log.dir.appendingPathComponent("run.json")
        try log.ok(["import", Self.long, "--report", report.path])
        #expect(log.scalar("SELECT new_rows FROM imports") == "0")
        #expect(!(try String(contentsOf: report, encoding: .utf8)).contains("refresh"))
        try log.expectExact()
    }

    /// What `reports list --json` and `entries list --json` print imports back as the same log.
    @Test func listedJSONImportsBackTheSameLog() throws {
        let a = HealthLog()
        try a.ok(["import", Self.long])
        try a.ok(["add", "episode", "stress", "--start", "2024-03-12 09:00"])
        let reports = a.dir.appendingPathComponent("reports.json"), entries = a.dir.appendingPathComponent("entries.json")
        try E2E.write(try a.ok(["reports", "list", "--json"]).stdout, to: reports)
        try E2E.write(try a.ok(["entries", "list", "--json"]).stdout, to: entries)
        let b = HealthLog()
        try b.ok(["import", reports.path, entries.path])
        for listing in [["reports", "list"], ["entries", "list"], ["reports", "summary"], ["days"]] {
            #expect(try a.ok(listing).stdout == (try b.ok(listing).stdout), "\(listing)")
        }
        try b.expectExact()
    }

    @Test func badRowsAreQuarantinedWithTheirReasonAndTheRestLands() throws {
        let log = HealthLog()
        let csv = log.dir.appendingPathComponent("log.csv")
        try E2E.write("""
            time,metric,value,unit,importance,note
            2024-03-05 08:00,body_temperature,37.8,degC,4,warm
            2024-03-05 08:00,systolic,135,mmHg,3,
            2024-03-05 13:00,body_temperature,38.1,kelvin,4,
            2024-03-05 13:00,pain,3,,2,
            2024-03-05 20:00,body_temperature,37.9,degC,7,
            2024-03-05 20:00,pain,3,,2,
            2024-03-05 21:00,insulin,,U,,
            not a time,pain,3,,2,

            """, to: csv)
        let r = try log.run(["import", csv.path])
        #expect(r.code == 3, "\(r.stderr)")
        let reasons = try String(contentsOf: log.dir.appendingPathComponent("health.quarantine.ndjson"), encoding: .utf8)
        for reason in ["unknown unit 'kelvin'", "importance 7 is outside 1–5", "no value", "time 'not a time' is not a time",
                       "a report needs at least 2 values"] {
            #expect(reasons.contains(reason), "\(reason) in \(reasons)")
        }
        #expect(log.query("SELECT id FROM reports") == [["20240305-0800"]])
        let json = log.dir.appendingPathComponent("log.json")
        try E2E.write("""
            [{"time":"2024-03-06T08:00:00+01:00","values":[{"metric":"temp","value":38,"importance":9},{"metric":"pain","value":2,"importance":1}]},
             {"kind":"insulin","start":"2024-03-06T08:00:00+01:00"},
             {"kind":"meal","start":"2024-03-06T12:00:00+01:00","carbs_g":50,"name":"Soup"}]
            """, to: json)
        #expect(try log.run(["import", json.path]).code == 3)
        let more = try String(contentsOf: log.dir.appendingPathComponent("health.quarantine.ndjson"), encoding: .utf8)
        #expect(more.contains("$[0].values[0]: importance 9 is outside 1–5") && more.contains("$[1].units: an insulin entry needs its units"))
        #expect(log.query("SELECT id FROM manual_entries") == [["meal-20240306-1200"]])
    }

    /// A YAML adapter maps importance (fixed or from a column) and a free-text note column; it was
    /// refused before issue 13.
    @Test func aYAMLAdapterMapsImportanceAndNotes() throws {
        let log = HealthLog()
        let adapters = log.dir.appendingPathComponent("adapters")
        try FileManager.default.createDirectory(at: adapters, withIntermediateDirectories: true)
        try E2E.write("""
            name: my-diary
            description: My health diary
            detect:
              header_contains: [date, temp_f, temp_imp, pain, comment]
            timestamp: { column: date, format: "%Y-%m-%d %H:%M" }
            note_column: comment
            columns:
              temp_f: { metric: body_temperature, unit: degF, importance_column: temp_imp }
              pain: { metric: pain, unit: score, importance: 4 }
              carbs: { event: meal, field: carbs }

            """, to: adapters.appendingPathComponent("my-diary.yaml"))
        let csv = log.dir.appendingPathComponent("diary.csv")
        try E2E.write("""
            date,temp_f,temp_imp,pain,carbs,comment
            2024-03-05 08:00,100.4,4,3,,feverish
            2024-03-05 12:00,,,,60,lunch
            2024-03-05 18:00,,,,,felt better
            2024-03-05 20:00,99.1,9,2,,
            2024-03-06 08:00,98.6,2,,,

            """, to: csv)
        let r = try log.run(["import", csv.path, "--plugin-path", adapters.path])
        #expect(r.code == 3, "\(r.stderr)")
        #expect(log.query("SELECT id, note FROM reports") == [["20240305-0800", "feverish"]])
        #expect(log.query("SELECT metric, round(value, 3), unit, importance FROM report_values ORDER BY metric")
                == [["body_temperature", "38.0", "degC", "4"], ["pain", "3.0", "score", "4"]])
        #expect(log.query("SELECT kind, note, carbs_g FROM events ORDER BY start") == [["meal", "lunch", "60.0"], ["note", "felt better", "NULL"]])
        let reasons = try String(contentsOf: log.dir.appendingPathComponent("health.quarantine.ndjson"), encoding: .utf8)
        #expect(reasons.contains("importance 9 is outside 1–5") && reasons.contains("a report needs at least 2 values"))
        // A unit the value cannot be in is refused when the adapter loads, naming the line.
        try E2E.write(try String(contentsOf: adapters.appendingPathComponent("my-diary.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "unit: degF", with: "unit: kelvin"), to: adapters.appendingPathComponent("my-diary.yaml"))
        let bad = try log.run(["import", csv.path, "--plugin-path", adapters.path])
        #expect(bad.code == 2 && bad.stderr.contains("my-diary.yaml:8:") && bad.stderr.contains("unknown unit 'kelvin'"), "\(bad.stderr)")
    }

    /// Clarity Health rows and CareLink illness/stress markers have no end: they last daily's
    /// episode_length (24 h by default; a setting), so they flag the days they reach.
    @Test func markersWithoutAnEndLastTheDefaultLength() throws {
        let log = HealthLog()
        let clarity = log.dir.appendingPathComponent("clarity.csv")
        let sample = try String(contentsOfFile: E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path,
                                encoding: .utf8)
        var lines = sample.components(separatedBy: "\n")
        let firstEGV = try #require(lines.firstIndex { $0.contains(",EGV,") })
        var cells = lines[firstEGV].components(separatedBy: ",")
        cells[2] = "Health"; cells[3] = "Illness"; cells[7] = ""
        let day = String(cells[1].prefix(10))
        cells[1] = day + " 18:00:00"
        lines.insert(cells.joined(separator: ","), at: firstEGV)
        try E2E.write(lines.joined(separator: "\n"), to: clarity)
        #expect([0, 3].contains(try log.run(["import", clarity.path]).code))
        let next = log.scalar("SELECT date('\(day)', '+1 day')")
        #expect(log.query("SELECT day FROM daily_summaries WHERE illness = 1 AND metric = 'glucose' ORDER BY day") == [[day], [next]])
        try log.expectExact()
        // The setting: markers last as long as the database's daily step says.
        try log.settings("daily: { episode_length: 0 }\npredict: false\nalerts: false\n")
        #expect(log.query("SELECT day FROM daily_summaries WHERE illness = 1 AND metric = 'glucose'") == [[day]])

        let carelink = HealthLog()
        let file = carelink.dir.appendingPathComponent("carelink.csv")
        let text = try String(contentsOfFile: E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv").path,
                              encoding: .utf8)
        try E2E.write(text.replacingOccurrences(of: ";Insulin: 3,00;", with: ";Illness;"), to: file)
        #expect([0, 3].contains(try carelink.run(["import", file.path]).code))
        #expect(Int(carelink.scalar("SELECT count(*) FROM events WHERE kind = 'episode' AND subtype = 'illness' AND \"end\" = start")) ?? 0 > 0)
        // Every glucose day a marker reaches within 24 h of it is flagged, and no other.
        let reached = carelink.query("""
            SELECT DISTINCT d.day FROM daily_summaries d JOIN events e ON e.kind = 'episode'
             WHERE d.metric = 'glucose' AND d.day BETWEEN date(e.start + e.utc_offset, 'unixepoch')
                                                    AND date(e.start + e.utc_offset + 86400, 'unixepoch') ORDER BY 1
            """)
        #expect(!reached.isEmpty)
        #expect(carelink.query("SELECT day FROM daily_summaries WHERE illness = 1 AND metric = 'glucose' ORDER BY day") == reached)
        try carelink.expectExact()
    }
}
