import Foundation
import Testing

/// Each problem issue 9 listed, as a user met it, now held by the derived-data rule: what people
/// see (daily summaries, the day table, metric sets) equals what the stored readings give.
@Suite struct DerivedDataRuleTests {
    static let libre = E2E.samples.appendingPathComponent("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv").path
    static let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path
    static let simglucose = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path

    static func importArgs(_ files: [String], _ db: URL) -> [String] {
        ["import"] + files + ["--db", db.path, "--timezone", "Europe/London", "--subject", "demo"]
    }

    static func reaggregated(_ db: URL) throws -> DerivedSnapshot {
        let copy = db.deletingLastPathComponent().appendingPathComponent("reaggregated-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: db, to: copy)
        let r = try E2E.run(["reaggregate", "--db", copy.path])
        #expect(r.code == 0, "\(r.stderr)")
        return DerivedSnapshot(copy)
    }

    @Test func twoFilesOfTheSameDaysInOneImportCountBoth() throws {
        let db = E2E.tempDir().appendingPathComponent("t.sqlite")
        for _ in 0..<3 {  // the outcome used to depend on thread timing
            try? FileManager.default.removeItem(at: db)
            let r = try E2E.run(Self.importArgs([Self.libre, Self.clarity], db))
            #expect(r.code == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("arrived after"))
            let metrics = Dictionary(uniqueKeysWithValues: E2E.query(db, """
                SELECT name, value FROM glucose_metrics WHERE period_start = '1961-04-15' AND period_end = '1961-04-15'
                """).map { ($0[0], Double($0[1])!) })
            // Both devices' readings of the day, as stored (288 Dexcom + 312 Libre, scans included).
            let stored = E2E.query(db, """
                SELECT count(*), avg(value), 100.0 * sum(value BETWEEN 70 AND 180) / count(*) FROM measurements
                WHERE metric = 'glucose' AND date(start + utc_offset, 'unixepoch') = '1961-04-15'
                """)[0].map { Double($0)! }
            #expect(stored[0] == 600)
            #expect(metrics["n_readings"] == stored[0])
            #expect(abs((metrics["mean"] ?? 0) - stored[1]) < 1e-9)
            #expect(abs((metrics["tir_70_180_pct"] ?? 0) - stored[2]) < 1e-9)
            #expect(E2E.scalar(db, "SELECT readings FROM day_log WHERE day = '1961-04-15'") == "600")
            #expect(DerivedSnapshot(db).difference(from: try Self.reaggregated(db)) == nil)
        }
    }

    @Test func libreViewScansListedLastCountInEveryView() throws {
        let r = try E2E.run(["metrics", "--input", Self.libre, "--timezone", "Europe/London", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let total = try MetricsCommandTests.objects(r.stdout).values.reduce(0.0) { $0 + (($1["n_readings"] as? NSNumber)?.doubleValue ?? 0) }
        #expect(total == 4620)
    }

    /// A morning export and an evening export of the same days, imported as two runs.
    @Test func aFileSplitInTwoRunsGivesTheDaysOfTheWholeFile() throws {
        let dir = E2E.tempDir()
        let lines = try String(contentsOfFile: Self.simglucose, encoding: .utf8).split(separator: "\n")
        let rows = lines.dropFirst().filter { $0.contains("adult#001") && $0 < "2024-01-04" }
        let morning = rows.filter { $0.dropFirst(11).prefix(2) < "12" }, evening = rows.filter { $0.dropFirst(11).prefix(2) >= "12" }
        let files = [("morning.csv", morning), ("evening.csv", evening), ("whole.csv", rows)].map { name, part -> String in
            let url = dir.appendingPathComponent(name)
            try? Data((([lines[0]] + part).joined(separator: "\n") + "\n").utf8).write(to: url)
            return url.path
        }
        let split = dir.appendingPathComponent("split.sqlite"), whole = dir.appendingPathComponent("whole.sqlite")
        #expect(try E2E.run(Self.importArgs([files[0]], split)).code == 0)
        #expect(try E2E.run(Self.importArgs([files[1]], split)).code == 0)
        #expect(try E2E.run(Self.importArgs([files[2]], whole)).code == 0)
        #expect(E2E.scalar(split, "SELECT group_concat(n) FROM daily_summaries WHERE metric = 'glucose' ORDER BY day") == "288,288,288")
        #expect(E2E.scalar(split, "SELECT carbs_g FROM daily_summaries WHERE day = '2024-01-02' AND metric = 'glucose'")
                == E2E.scalar(split, "SELECT total(carbs_g) FROM events WHERE date(start + utc_offset, 'unixepoch') = '2024-01-02'"))
        #expect(DerivedSnapshot(split).difference(from: DerivedSnapshot(whole)) == nil)
    }

    @Test func reimportingAStoredFileRewritesNothing() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("t.sqlite")
        #expect(try E2E.run(Self.importArgs([Self.libre, Self.clarity], db)).code == 0)
        let before = DerivedSnapshot(db)
        let report = dir.appendingPathComponent("report.json")
        let r = try E2E.run(Self.importArgs([Self.clarity], db) + ["--report", report.path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports WHERE path LIKE '%Clarity%'") == "0")
        #expect(E2E.scalar(db, "SELECT n FROM daily_summaries WHERE day = '1961-04-15' AND metric = 'glucose'") == "600")
        #expect(DerivedSnapshot(db) == before)
        // Nothing was pending, so no refresh ran.
        #expect(!(try String(contentsOf: report, encoding: .utf8)).contains("refresh"))
    }

    @Test func exactDuplicateReadingsCountOnce() throws {
        let dir = E2E.tempDir()
        var lines = try String(contentsOfFile: Self.clarity, encoding: .utf8).components(separatedBy: "\n")
        lines.insert(contentsOf: lines[20..<40], at: 40)  // twenty EGV rows repeated
        let file = dir.appendingPathComponent("dup.csv")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let db = dir.appendingPathComponent("t.sqlite")
        #expect(try E2E.run(Self.importArgs([file.path], db)).code == 0)
        #expect(E2E.scalar(db, "SELECT sum(n) FROM daily_summaries WHERE metric = 'glucose'")
                == E2E.scalar(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose'"))
    }

    static func temperatureExport(_ celsius: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <ExportDate value="2024-03-02 09:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermometer" unit="degC" creationDate="2024-03-01 08:00:00 +0000" startDate="2024-03-01 08:00:00 +0000" endDate="2024-03-01 08:00:00 +0000" value="\(celsius)"/>
         <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermometer" unit="degC" creationDate="2024-03-01 20:00:00 +0000" startDate="2024-03-01 20:00:00 +0000" endDate="2024-03-01 20:00:00 +0000" value="37.4"/>
        </HealthData>

        """
    }

    @Test func aCorrectedValueReplacesTheReading() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("t.sqlite"), file = dir.appendingPathComponent("export.xml")
        try E2E.write(Self.temperatureExport("36.9"), to: file)
        #expect(try E2E.run(["import", file.path, "--db", db.path]).code == 0)
        try E2E.write(Self.temperatureExport("37.1"), to: file)
        #expect(try E2E.run(["import", file.path, "--db", db.path]).code == 0)
        #expect(E2E.query(db, "SELECT value FROM measurements WHERE metric = 'body_temperature' ORDER BY start") == [["37.1"], ["37.4"]])
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports") == "1")
        #expect(E2E.scalar(db, "SELECT n || ' ' || round(mean, 2) FROM daily_summaries WHERE metric = 'body_temperature'") == "2 37.25")
    }

    @Test func glucoseFlagsAndIndicesStayWithGlucose() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("t.sqlite"), file = dir.appendingPathComponent("export.xml")
        try E2E.write(Self.temperatureExport("36.9"), to: file)
        #expect(try E2E.run(["import", file.path, "--db", db.path]).code == 0)
        #expect(E2E.scalar(db, "SELECT hypo || hyper FROM daily_summaries WHERE metric = 'body_temperature'") == "00")
        for source in [["--db", db.path], ["--input", file.path]] {
            let r = try E2E.run(["metrics"] + source + ["--metric", "body_temperature", "--json"])
            #expect(r.code == 0, "\(r.stderr)")
            let o = try #require(try MetricsCommandTests.objects(r.stdout).values.first)
            #expect(Set(o.keys).isSuperset(of: ["n_readings", "mean", "sd", "min", "max"]))
            #expect(o["gmi_pct"] == nil && o["tbr_lt54_pct"] == nil && o["lbgi"] == nil)
            #expect((o["mean"] as? NSNumber)?.doubleValue == 37.15)
        }
    }

    @Test func metricsFromTheDatabasePrintEveryDay() throws {
        let db = E2E.tempDir().appendingPathComponent("t.sqlite")
        #expect(try E2E.run(["import", Self.simglucose, "--db", db.path]).code == 0)
        let r = try E2E.run(["metrics", "--db", db.path, "--per", "day", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 140)  // 10 subjects × 14 days
    }

    /// Two readings at one instant from two devices: the store and the file compute the same metrics.
    @Test func readingsAtOneInstantFollowOneRuleEverywhere() throws {
        let dir = E2E.tempDir()
        var lines = try String(contentsOfFile: Self.libre, encoding: .utf8).components(separatedBy: "\n")
        let copies = lines[100..<400].map { line -> String in
            var cells = line.components(separatedBy: ",")
            cells[0] = "FreeStyle LibreLink"
            if let v = Int(cells[4]) { cells[4] = String(v + 17) }
            return cells.joined(separator: ",")
        }
        lines.insert(contentsOf: copies, at: 400)
        let file = dir.appendingPathComponent("two-devices.csv")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let db = dir.appendingPathComponent("t.sqlite")
        #expect(try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Europe/London"]).code == 0)
        let fromFile = try E2E.run(["metrics", "--input", file.path, "--timezone", "Europe/London", "--per", "period", "--json"])
        let fromDB = try E2E.run(["metrics", "--db", db.path, "--per", "period", "--json"])
        #expect(fromFile.code == 0 && fromDB.code == 0, "\(fromFile.stderr)\(fromDB.stderr)")
        let a = try #require(try MetricsCommandTests.objects(fromFile.stdout).values.first)
        let b = try #require(try MetricsCommandTests.objects(fromDB.stdout).values.first)
        for name in ["n_readings", "mean", "sd", "mage_ma", "conga1", "modd", "active_percent"] {
            #expect((a[name] as? NSNumber)?.doubleValue == (b[name] as? NSNumber)?.doubleValue, "\(name)")
        }
    }

    @Test func repeatingAnImportAddsAndChangesNothing() throws {
        let db = E2E.tempDir().appendingPathComponent("t.sqlite")
        let files = [Self.libre, Self.clarity, E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv").path,
                     E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_export.zip").path]
        #expect([0, 3].contains(try E2E.run(Self.importArgs(files, db)).code))
        #expect([0, 3].contains(try E2E.run(Self.importArgs(files, db)).code))
        #expect(E2E.scalar(db, "SELECT group_concat(new_rows) FROM imports") == "0,0,0,0,0")
    }

    @Test func aCareLinkHeaderBelowLineTwelveIsFound() throws {
        let dir = E2E.tempDir()
        let sample = try String(contentsOfFile: E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv").path,
                                encoding: .utf8)
        // A two-pump export's preamble: the first section starts on line 13 or later.
        var lines = sample.components(separatedBy: "\r\n")
        let extra = ["Device;MiniMed 640G MMT-1712;Serial Number;NG1111111H", "Device;MiniMed 780G MMT-1886;Serial Number;NG2222222H",
                     "", "Report;Data Export", "Generated;2024-01-02 10:00", "", "", "", ""]
        lines.replaceSubrange(0..<2, with: extra)
        #expect(lines.firstIndex { $0.hasPrefix("-------") }! >= 12 && lines.firstIndex { $0.hasPrefix("Index") }! >= 13)
        let file = dir.appendingPathComponent("two-pumps.csv")
        try Data(lines.joined(separator: "\r\n").utf8).write(to: file)
        let db = dir.appendingPathComponent("t.sqlite")
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Europe/Amsterdam"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "medtronic-carelink")
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == 1499)
    }
}
