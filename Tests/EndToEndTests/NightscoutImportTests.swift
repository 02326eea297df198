import Foundation
import Testing

/// Nightscout JSON through the real binary: the real iAPS dump (entries, treatments, profile), a
/// Loop-style treatments file with every kind of event, device status, and a mongoexport file.
@Suite struct NightscoutImportTests {
    let ns = E2E.samples.appendingPathComponent("nightscout")

    /// Imports the sample `name` into a new database with a quarantine file; some of its documents are
    /// bad, so the import exits 3. Returns the sample's path, the database, the quarantine file and the run.
    func importWithBadRows(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (file: String, db: URL, q: URL, result: E2E.Result) {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let q = dir.appendingPathComponent("bad.ndjson")
        let file = ns.appendingPathComponent(name).path
        let r = try E2E.run(["import", file, "--db", db.path, "--quarantine", q.path])
        #expect(r.code == 3, "\(r.stderr)", sourceLocation: sourceLocation)
        return (file, db, q, r)
    }

    @Test func realDumpEntriesTreatmentsAndProfile() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let files = ["cgm_format_nightscout_entries.json", "cgm_format_nightscout_treatments.json", "cgm_format_nightscout_profile.json"]
            .map { ns.appendingPathComponent($0).path }
        let r = try E2E.run(["import"] + files + ["--db", db.path, "--timezone", "Europe/Moscow"])
        #expect(r.code == 0, "\(r.stderr)")
        let want1: [[String]] = [
            ["nightscout", "1000", "1000", "0", "0"], ["nightscout", "1000", "342", "658", "0"], ["nightscout", "9", "0", "0", "0"]]
        #expect(E2E.query(db, "SELECT format, rows_read, measurements, events, rejected FROM imports ORDER BY id") == want1)
        // Entries are mg/dL whatever the profile's display unit (mmol); the night low 43 → 32 → 43 is kept.
        let want2: [[String]] = [["1000", "32.0", "285.0", "mg/dL"]]
        #expect(E2E.query(db, "SELECT count(*), min(value), max(value), unit FROM measurements WHERE metric = 'glucose'") == want2)
        #expect(E2E.scalar(db, "SELECT DISTINCT utc_offset FROM measurements") == "10800")
        // 155 SMB + 18 Bolus = 173 boluses, 77 U; 342 temp basals are basal_rate measurements (iAPS writes `absolute`); 462 Sensor Start
        // uploads at 19 distinct seconds (iAPS re-uploads them) land once each.
        let want3: [[String]] = [
            ["device", "insulin_change", "1", "NULL", "NULL"], ["device", "sensor_start", "19", "NULL", "NULL"],
            ["device", "site_change", "2", "NULL", "NULL"], ["insulin", "bolus", "173", "77.0", "NULL"],
            ["meal", "", "9", "NULL", "228.0"],
            ["note", "temporary_target", "11", "NULL", "NULL"]]
        #expect(E2E.query(db, "SELECT kind, subtype, count(*), sum(insulin_u), sum(carbs_g) FROM events GROUP BY 1, 2 ORDER BY 1, 2") == want3)
        // A temp basal is a basal rate over its span: end = start + 120 min here, 0 U/h, the iAPS objects in metadata.
        let want4: [[String]] = [["7200", "0.0", "U/h", "absolute", "iAPS"]]
        #expect(E2E.query(db, """
            SELECT end - start, value, unit, json_extract(metadata, '$.raw_rate.temp'), source
            FROM measurements WHERE metric = 'basal_rate' AND start = strftime('%s', '2026-04-02 15:27:35')
            """) == want4)
        let want5: [[String]] = [["mmol", "Europe/Moscow", "6"]]
        #expect(E2E.query(db, "SELECT json_extract(attributes, '$.units'), json_extract(attributes, '$.timezone'), "
                          + "json_extract(attributes, '$.dia') FROM subject_profiles WHERE source = 'nightscout'") == want5)
        let again = try E2E.run(["import"] + files + ["--db", db.path, "--timezone", "Europe/Moscow"])
        #expect(again.code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func loopTreatmentsBecomeEventsWithTheirDetails() throws {
        let (_, db, q, _) = try importWithBadRows("nightscout_treatments_loop.json")
        // Meal Bolus: a bolus and a meal; corrections and automatic boluses are boluses with their eventType in metadata.
        let want6: [[String]] = [
            ["insulin", "bolus", "4.2", "NULL", "NULL", "NULL", "porridge", "Meal Bolus", "loop://iPhone", "0", "3600"],
            ["meal", "", "NULL", "48.0", "20.0", "15.0", "porridge", "Meal Bolus", "loop://iPhone", "0", "3600"],
            ["insulin", "bolus", "1.35", "NULL", "NULL", "NULL", "NULL", "Correction Bolus", "loop://iPhone", "0", "3600"],
            ["insulin", "bolus", "0.3", "NULL", "NULL", "NULL", "NULL", "Bolus", "loop://iPhone", "0", "3600"],
            ["exercise", "exercise", "NULL", "NULL", "NULL", "NULL", "run", "Exercise", "Sam", "40", "3600"],
            ["device", "site_change", "NULL", "NULL", "NULL", "NULL", "left arm", "Site Change", "Sam", "0", "3600"],
            ["note", "note", "NULL", "NULL", "NULL", "NULL", "felt low after the run", "Note", "Sam", "0", "3600"],
            ["meal", "", "NULL", "15.0", "NULL", "NULL", "NULL", "Carb Correction", "Sam", "0", "3600"],
            ["device", "sensor_start", "NULL", "NULL", "NULL", "NULL", "NULL", "Sensor Start", "Sam", "0", "3600"],
            ["note", "temporary_override", "NULL", "NULL", "NULL", "NULL", "Running", "Temporary Override", "loop://iPhone", "60", "3600"],
        ]
        #expect(E2E.query(db, """
            SELECT kind, subtype, insulin_u, carbs_g, protein_g, fat_g, note, json_extract(metadata, '$.eventType'), source,
                   (end - start) / 60, utc_offset FROM events ORDER BY start, kind
            """) == want6)
        let want7: [[String]] = [["1"]]
        #expect(E2E.query(db, "SELECT json_extract(metadata, '$.automatic') FROM events WHERE insulin_u = 0.3") == want7)
        // Loop's temp basals (`absolute`) are basal rates over their 30 minutes; the suspend (percent −100) is 0 U/h.
        let want8: [[String]] = [["1.25", "1800", "NULL"], ["0.0", "1800", "-100"]]
        #expect(E2E.query(db, "SELECT value, end - start, json_extract(metadata, '$.percent') FROM measurements "
                          + "WHERE metric = 'basal_rate' ORDER BY start") == want8)
        // The BG Check in mmol is a finger-stick reading in mg/dL: 5.4 × 18.0156 = 97.3 → 97.
        let want9: [[String]] = [["blood_glucose", "97.0", "4", "64"]]
        #expect(E2E.query(db, "SELECT metric, value, flags & 4, flags & 64 FROM measurements WHERE metric <> 'basal_rate'") == want9)
        // The negative correction is quarantined with its JSON path and line.
        let bad = try String(contentsOf: q, encoding: .utf8)
        #expect(bad.contains("$[12].insulin: insulin -2 U is outside the plausible range"), "\(bad)")
        #expect(bad.contains("\"line\":112"), "\(bad)")
    }

    @Test func mongoexportExtendedJSONStreams() throws {
        let (file, db, q, r) = try importWithBadRows("nightscout_mongoexport_entries.json")
        // 40 sgv documents ($date/$numberLong/plain dates, some sgv as strings) and one mbg; the cal entry is not a reading.
        let want10: [[String]] = [["blood_glucose", "Dexcom", "1"], ["glucose", "Dexcom", "40"]]
        #expect(E2E.query(db, "SELECT metric, source, count(*) FROM measurements GROUP BY 1, 2 ORDER BY 1") == want10)
        #expect(E2E.scalar(db, "SELECT DISTINCT utc_offset FROM measurements WHERE metric = 'glucose'") == "3600")
        #expect(E2E.scalar(db, "SELECT datetime(min(start), 'unixepoch') FROM measurements WHERE metric = 'glucose'") == "2024-02-10 07:00:09")
        let bad = try String(contentsOf: q, encoding: .utf8).split(separator: "\n")
        #expect(bad.count == 2)
        #expect(bad[0].contains("\"line\":11") && bad[0].contains("CGM status code"), "\(bad)")
        #expect(bad[1].contains("\"line\":21") && bad[1].contains("invalid JSON"), "\(bad)")
        #expect(r.stderr.contains("'cal' entries"), "\(r.stderr)")
        #expect(try E2E.run(["import", file, "--db", db.path, "--quarantine", q.path]).code == 3)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func deviceStatusBecomesLoopMeasurements() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", ns.appendingPathComponent("nightscout_devicestatus.json").path, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        let want11: [[String]] = [
            ["loop://iPhone", "carbs_on_board", "41.2", "g"], ["loop://iPhone", "insulin_on_board", "3.85", "U"],
            ["loop://iPhone", "pump_battery", "75.0", "%"], ["loop://iPhone", "pump_reservoir", "112.4", "U"],
            ["loop://iPhone", "uploader_battery", "88.0", "%"], ["openaps://rig", "carbs_on_board", "12.0", "g"],
            ["openaps://rig", "insulin_on_board", "2.1", "U"], ["openaps://rig", "uploader_battery", "64.0", "%"]]
        #expect(E2E.query(db, "SELECT source, metric, value, unit FROM measurements ORDER BY source, metric") == want11)
    }
}

/// API v3 treatments (AndroidAPS's NSClientV3: `date` in ms, `utcOffset` in minutes, `app`, a
/// server's `identifier`/`srvModified`, no `enteredBy`): `app` names the source, the server's fields
/// are not kept, and the same treatment under another identifier is the same row.
@Suite struct NightscoutV3ImportTests {
    @Test func v3TreatmentsTakeTheirSourceFromAppAndKeepNoServerFields() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite"), file = dir.appendingPathComponent("v3.json")
        func treatment(_ identifier: String) -> String {
            #"{"identifier":"\#(identifier)","srvModified":1709280001000,"srvCreated":1709280001000,"app":"AAPS","date":1709280000000,"utcOffset":60,"eventType":"Correction Bolus","insulin":1.5,"type":"SMB","isValid":true}"#
        }
        try Data(("[" + treatment("a1") + "," + treatment("b2") + "]").utf8).write(to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--format", "nightscout"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT source, kind, subtype, start, utc_offset, insulin_u, metadata FROM events") == [
            ["AAPS", "insulin", "bolus", "1709280000", "3600", "1.5", #"{"app":"AAPS","date":1709280000000,"eventType":"Correction Bolus","type":"SMB","isValid":true}"#]])
    }
}
