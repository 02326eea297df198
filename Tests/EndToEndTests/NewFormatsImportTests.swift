import Foundation
import Testing

/// Tidepool, Clarity XLSX, Tandem t:connect and overlapping exports of one sensor, through the real binary.
@Suite struct NewFormatsImportTests {
    @Test func tidepoolExportEveryType() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let q = dir.appendingPathComponent("bad.ndjson")
        let file = E2E.samples.appendingPathComponent("tidepool/tidepool_export.json").path
        let r = try E2E.run(["import", file, "--db", db.path, "--quarantine", q.path])
        #expect(r.code == 3, "\(r.stderr)")
        let want1: [[String]] = [
            ["basal_rate", "InsOmn-130101234", "4", "0.0", "1.2", "U/h"],
            ["blood_glucose", "InsOmn-130101234", "1", "130.0", "130.0", "mg/dL"],
            ["glucose", "Dexcom", "24", "40.0", "127.0", "mg/dL"],
            ["ketone", "InsOmn-130101234", "1", "0.4", "0.4", "mmol/L"]]
        #expect(E2E.query(db, "SELECT metric, source, count(*), min(value), max(value), unit FROM measurements GROUP BY 1, 2 ORDER BY 1") == want1)
        // mmol/L → whole mg/dL (flag 64); the sensor's Low annotation sets flag 1; local days from timezoneOffset −300 min.
        let want2: [[String]] = [["40.0", "65"]]
        #expect(E2E.query(db, "SELECT value, flags FROM measurements WHERE metric = 'glucose' AND flags & 1") == want2)
        #expect(E2E.scalar(db, "SELECT DISTINCT utc_offset FROM measurements") == "-18000")
        let want3: [[String]] = [
            ["device", "alarm", "1", "NULL", "NULL"], ["device", "prime", "1", "NULL", "NULL"],
            ["device", "reservoir_change", "1", "NULL", "NULL"], ["exercise", "walking", "1", "NULL", "NULL"],
            // basal: 0.85 U/h × 1 h + 1.2 × 0.5 h + suspend 0 + 0.85 × 0.75 h = 2.0875
            ["insulin", "basal", "4", "2.088", "NULL"], ["insulin", "bolus", "3", "9.2", "NULL"],
            ["meal", "", "2", "NULL", "75.0"]]
        #expect(E2E.query(db, "SELECT kind, subtype, count(*), round(sum(insulin_u), 3), sum(carbs_g) FROM events GROUP BY 1, 2 ORDER BY 1, 2") == want3)
        let want4: [[String]] = [["35", "medium", "Morning walk"]]
        #expect(E2E.query(db, "SELECT (end - start) / 60, intensity, note FROM events WHERE kind = 'exercise'") == want4)
        let want5: [[String]] = [["0", "4.2", "normal"], ["60", "3.0", "dual/square"], ["120", "2.0", "square"]]
        #expect(E2E.query(db, "SELECT (end - start) / 60, insulin_u, json_extract(metadata, '$.subType') FROM events "
                          + "WHERE subtype = 'bolus' ORDER BY start") == want5)
        #expect(r.stderr.contains("not imported: 1 pumpSettings, 1 upload"), "\(r.stderr)")
        let bad = try String(contentsOf: q, encoding: .utf8)
        #expect(bad.contains("$[41].value: value is not a number"), "\(bad)")
        #expect(try E2E.run(["import", file, "--db", db.path, "--quarantine", q.path]).code == 3)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    /// One Dexcom G6 sensor seen through Clarity (readings 0–35), Nightscout (12–47, three of them
    /// repeated by a second uploader) and Tidepool (24–59, mmol/L): 60 readings, not 108.
    @Test func overlappingExportsOfOneSensorDoNotDoubleCount() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let o = E2E.samples.appendingPathComponent("overlap")
        let files = ["clarity_g6_mgdl.csv", "nightscout_entries.json", "tidepool_cbg.json"].map { o.appendingPathComponent($0).path }
        let r = try E2E.run(["import"] + files + ["--db", db.path, "--timezone", "Europe/Berlin"])
        #expect(r.code == 0, "\(r.stderr)")
        let want6: [[String]] = [["glucose", "Dexcom", "60", "60"]]
        #expect(E2E.query(db, "SELECT metric, source, count(*), count(DISTINCT start) FROM measurements GROUP BY 1, 2") == want6)
        // Each reading keeps the device that last carried it; the transmitter is in the device, not the key.
        #expect(E2E.scalar(db, "SELECT count(*) FROM devices WHERE json_extract(attributes, '$.serial') = '8G1ABC'") == "2")
        // Daily summaries are a function of the store: re-aggregated, the one day has 60 readings.
        #expect(try E2E.run(["reaggregate", "--db", db.path]).code == 0)
        let want7: [[String]] = [["2024-06-05", "60"]]
        #expect(E2E.query(db, "SELECT day, n FROM daily_summaries WHERE metric = 'glucose'") == want7)
        // Again, in either order: still 60 readings. A reading keeps the device of the export written
        // last (the files of one run are read concurrently, so that is per reading), so an export
        // imported again right after itself changes nothing at all.
        #expect(try E2E.run(["import"] + files.reversed() + ["--db", db.path, "--timezone", "Europe/Berlin"]).code == 0)
        #expect(try E2E.run(["import"] + files + ["--db", db.path, "--timezone", "Europe/Berlin"]).code == 0)
        #expect(E2E.count(db, "measurements") == 60)
        for _ in 0..<2 { #expect(try E2E.run(["import", files[2], "--db", db.path]).code == 0) }
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports WHERE path = '\(files[2])'") == "0")
        #expect(E2E.count(db, "measurements") == 60)
    }

    /// `healthpipe import` of the EU Clarity workbook and of the same data as CSV: the same rows.
    @Test func clarityXLSXGivesTheSameRowsAsItsCSV() throws {
        let dir = E2E.tempDir()
        let xlsx = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.xlsx").path
        let csv = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.csv").path
        var dumps: [[[String]]] = []
        for (name, file) in [("x", xlsx), ("c", csv)] {
            let db = dir.appendingPathComponent("\(name).sqlite")
            let r = try E2E.run(["import", file, "--db", db.path, "--timezone", "Europe/Berlin"])
            #expect(r.code == 0, "\(r.stderr)")
            let m = E2E.query(db, """
                SELECT m.subject, m.metric, m.source, m.start, m.end, m.value, m.utc_offset, m.unit, m.flags, m.band, m.line,
                       d.attributes FROM measurements m LEFT JOIN devices d ON d.id = m.device_id ORDER BY m.start, m.metric
                """)
            let e = E2E.query(db, "SELECT subject, kind, subtype, source, start, end, utc_offset, carbs_g, insulin_u, intensity, "
                              + "note, flags, line FROM events ORDER BY start, kind")
            let d = E2E.query(db, "SELECT * FROM daily_summaries ORDER BY day, metric")
            dumps.append(m + [["--"]] + e + [["--"]] + d)
        }
        #expect(dumps[0] == dumps[1])
        let db = dir.appendingPathComponent("x.sqlite")
        // 118 EGV (G6 then G7, one Low and one High), one calibration; 8 events.
        let want8: [[String]] = [["blood_glucose", "1", "1"], ["glucose", "120", "118"]]
        #expect(E2E.query(db, "SELECT metric, count(*), sum(flags & 64 != 0) FROM measurements GROUP BY 1") == want8)
        let want9: [[String]] = [["G6", "NULL", "1"], ["G6", "8EE0XY", "70"], ["G7", "G7AB12", "50"]]
        #expect(E2E.query(db, "SELECT json_extract(d.attributes, '$.model'), json_extract(d.attributes, '$.serial'), count(*) "
                          + "FROM measurements m JOIN devices d ON d.id = m.device_id GROUP BY 1, 2 ORDER BY 1") == want9)
        #expect(E2E.scalar(db, "SELECT count(*) FROM events") == "8")
        #expect(try E2E.run(["import", xlsx, "--db", db.path, "--timezone", "Europe/Berlin"]).code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func tandemTherapyTimeline() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let q = dir.appendingPathComponent("bad.ndjson")
        let file = E2E.samples.appendingPathComponent("tandem/tconnect_therapy_timeline.csv").path
        let r = try E2E.run(["import", file, "--db", db.path, "--timezone", "America/New_York", "--quarantine", q.path])
        #expect(r.code == 3, "\(r.stderr)")
        let want10: [[String]] = [
            ["basal_rate", "t:slim X2 Insulin Pump", "3", "U/h"], ["blood_glucose", "t:slim X2 Insulin Pump", "1", "mg/dL"],
            ["glucose", "Dexcom", "48", "mg/dL"],
            ["insulin_on_board", "t:slim X2 Insulin Pump", "4", "U"]]  // the pump as the file's readings name it
        #expect(E2E.query(db, "SELECT metric, source, count(*), unit FROM measurements GROUP BY 1, 2 ORDER BY 1") == want10)
        // Basal rate changes are scheduled steps (BasalRates: a rate at an instant), as CareLink's and Tidepool's are.
        #expect(E2E.query(db, "SELECT value, end - start FROM measurements WHERE metric = 'basal_rate' ORDER BY start")
                == [["0.85", "0"], ["0.95", "0"], ["0.8", "0"]])
        let want11: [[String]] = [
            ["insulin", "bolus", "3", "10.14", "NULL"], ["meal", "", "2", "NULL", "90.0"]]
        #expect(E2E.query(db, "SELECT kind, subtype, count(*), sum(insulin_u), sum(carbs_g) FROM events GROUP BY 1, 2 ORDER BY 1, 2") == want11)
        // InsulinDelivered is the whole bolus, extended part included (as a real Tandem Source export shows:
        // docs/vendors/tandem.md); it lasts from its request to the end of the extended part (2 h 1 min).
        let want12: [[String]] = [["121", "Extended 50.00/2.00"]]
        #expect(E2E.query(db, "SELECT (end - start) / 60, json_extract(metadata, '$.description') FROM events "
                          + "WHERE insulin_u = 4.0") == want12)
        #expect(E2E.scalar(db, "SELECT DISTINCT utc_offset FROM measurements") == "-14400")
        let bad = try String(contentsOf: q, encoding: .utf8)
        #expect(bad.contains("\"line\":57") && bad.contains("reading 'abc' is not a number"), "\(bad)")
        #expect(try E2E.run(["import", file, "--db", db.path, "--timezone", "America/New_York", "--quarantine", q.path]).code == 3)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }
}
