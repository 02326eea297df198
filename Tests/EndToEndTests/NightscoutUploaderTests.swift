import Foundation
import Testing

/// Nightscout documents as the uploaders really write them (docs/vendors/nightscout.md), one test
/// per problem seen in users' files; each fails on the code before this change.
@Suite struct NightscoutUploaderTests {
    private func importFile(_ name: String, _ text: String, _ extra: [String] = []) throws
        -> (code: Int32, stderr: String, db: URL, quarantine: URL) {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite"), q = dir.appendingPathComponent("bad.ndjson")
        let file = dir.appendingPathComponent(name)
        try E2E.write(text, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--quarantine", q.path] + extra)
        return (r.code, r.stderr, db, q)
    }

    /// The 600-series Android uploader's mongoexport writes `date` with an exponent; a seconds value
    /// and a `$numberDouble` wrapper are read too.
    @Test func exponentAndSecondsEpochDatesAreRead() throws {
        let text = """
            {"_id":{"$oid":"5cd4212a614598d46eb40a22"},"date":1.557405318571e+12,"dateString":"Thu May 09 14:35:18 GMT+02:00 2019","direction":"Flat","key600":"CGM8025B668","sgv":103,"type":"sgv"}
            {"_id":{"$oid":"5cd4212a614598d46eb40a25"},"date":1.557404718571e+12,"dateString":"Thu May 09 14:25:18 GMT+02:00 2019","key600":"CGM8025B410","sgv":104,"type":"sgv"}
            {"_id":{"$oid":"5cd4212a614598d46eb40a28"},"date":1557404418,"sgv":105,"type":"sgv"}
            {"_id":{"$oid":"5cd4212a614598d46eb40a2b"},"date":{"$numberDouble":"1557404118571.0"},"sgv":106,"type":"sgv"}
            {"_id":{"$oid":"5cd4212a614598d46eb40a2e"},"date":"1.557403818571e+12","sgv":107,"type":"sgv"}

            """
        let r = try importFile("entries.json", text)
        #expect(r.code == 0, "\(r.stderr)")
        let want: [[String]] = [["1557403818", "107.0"], ["1557404118", "106.0"], ["1557404418", "105.0"],
                                ["1557404718", "104.0"], ["1557405318", "103.0"]]
        #expect(E2E.query(r.db, "SELECT start, value FROM measurements ORDER BY start") == want)
    }

    /// An entry's own offset (`utcOffset`, the offset in `dateString`, a Java dateString's GMT+hh:mm
    /// or its wall clock against `date`) places it in local days; --timezone only fills in for
    /// documents without one.
    @Test func theEntrysOwnOffsetWinsOverTimezone() throws {
        let text = """
            [{"sgv":120,"date":1557405318571,"dateString":"2019-05-09T14:35:18.571+02:00","type":"sgv"},
             {"sgv":121,"date":1557405618571,"utcOffset":120,"type":"sgv"},
             {"sgv":122,"date":1557405918571,"dateString":"Thu May 09 14:45:18 GMT+02:00 2019","type":"sgv"},
             {"sgv":123,"date":1557406218571,"dateString":"Thu May 09 14:50:18 CEST 2019","type":"sgv"},
             {"sgv":124,"date":1557406518571,"dateString":"2019-05-09T12:55:18.571Z","type":"sgv"}]
            """
        let r = try importFile("entries.json", text, ["--timezone", "America/New_York"])
        #expect(r.code == 0, "\(r.stderr)")
        let want: [[String]] = [["120.0", "7200"], ["121.0", "7200"], ["122.0", "7200"], ["123.0", "7200"], ["124.0", "-14400"]]
        #expect(E2E.query(r.db, "SELECT value, utc_offset FROM measurements ORDER BY start") == want)
    }

    /// Temp basals per uploader: AndroidAPS's `rate` is the pump's percentage (140 = 140 %, never
    /// 140 U/h, 40 never 40 U/h); `percent` is a change against the profile's basal; `absolute` is
    /// U/h; a suspend is 0 U/h. With the profile in the file, percentages become U/h.
    @Test func temporaryBasalsAreReadPerUploader() throws {
        let treatments = """
            {"_id":"a1","eventType":"Temp Basal","created_at":"2024-03-01T10:00:00.000Z","rate":140,"duration":30,"enteredBy":"openaps://AndroidAPS","utcOffset":60}
            {"_id":"a2","eventType":"Temp Basal","created_at":"2024-03-01T10:30:00.000Z","rate":40,"duration":30,"device":"openaps://AndroidAPS","utcOffset":60}
            {"_id":"a3","eventType":"Temp Basal","created_at":"2024-03-01T11:00:00.000Z","rate":150,"percent":50,"duration":30,"enteredBy":"openaps://AndroidAPS","utcOffset":60}
            {"_id":"a4","eventType":"Temp Basal","created_at":"2024-03-01T11:30:00.000Z","rate":1.2,"absolute":1.2,"duration":30,"enteredBy":"openaps://AndroidAPS","utcOffset":60}
            {"_id":"l1","eventType":"Temp Basal","created_at":"2024-03-01T12:00:00Z","temp":"absolute","rate":2.35,"absolute":2.35,"duration":30,"enteredBy":"loop://iPhone"}
            {"_id":"x1","eventType":"Temp Basal","created_at":"2024-03-01T12:30:00Z","rate":0.65,"duration":30,"enteredBy":"xdrip"}
            {"_id":"m1","eventType":"Temp Basal","created_at":"2024-03-01T13:00:00+01:00","absolute":0,"duration":15,"notes":"Pump suspended insulin delivery"}
            {"_id":"s1","eventType":"Suspend Pump","created_at":"2024-03-01T14:00:00Z","duration":20,"enteredBy":"openaps://AndroidAPS"}
            {"_id":"c1","eventType":"Temp Basal","created_at":"2024-03-01T14:30:00Z","duration":0,"enteredBy":"openaps://AndroidAPS"}

            """
        let alone = try importFile("treatments.json", treatments)
        #expect(alone.code == 0, "\(alone.stderr)")
        // Without a profile the percentages stay percentages: events with basal_percent, no U/h.
        let want1: [[String]] = [
            ["0.0", "900", "absolute"], ["0.0", "1200", "Suspend Pump"], ["0.65", "1800", "rate"], ["1.2", "1800", "absolute"],
            ["2.35", "1800", "absolute"]]
        #expect(E2E.query(alone.db, "SELECT value, end - start, json_extract(metadata, '$.basal_rate_from') FROM measurements "
                          + "WHERE metric = 'basal_rate' ORDER BY value, start") == want1)
        let want2: [[String]] = [["140", "140", "1800"], ["40", "40", "1800"], ["150", "150", "1800"], ["NULL", "NULL", "0"]]
        #expect(E2E.query(alone.db, "SELECT json_extract(metadata, '$.rate'), json_extract(metadata, '$.basal_percent'), end - start "
                          + "FROM events WHERE subtype = 'temp_basal' ORDER BY start") == want2)
        #expect(E2E.scalar(alone.db, "SELECT count(*) FROM events WHERE insulin_u IS NOT NULL") == "0")

        // A whole-database export lists the profile after the treatments: 0.8 U/h from 00:00, 1.0 from 11:30 local.
        let profile = """
            {"_id":"p1","defaultProfile":"Default","startDate":"2024-01-01T00:00:00.000Z","store":{"Default":{"units":"mg/dl","timezone":"Europe/Paris","basal":[{"time":"00:00","value":0.8,"timeAsSeconds":0},{"time":"11:30","value":1.0,"timeAsSeconds":41400}]}}}

            """
        let withProfile = try importFile("all.json", treatments + profile)
        #expect(withProfile.code == 0, "\(withProfile.stderr)")
        // 140 % of 0.8 = 1.12 (11:00 Paris), 40 % of 1.0 = 0.4 (11:30), 150 % of 1.0 = 1.5 (12:00).
        let want3: [[String]] = [["140", "1.12"], ["40", "0.4"], ["150", "1.5"]]
        #expect(E2E.query(withProfile.db, "SELECT json_extract(metadata, '$.rate'), value FROM measurements WHERE metric = 'basal_rate' "
                          + "AND json_extract(metadata, '$.basal_percent') IS NOT NULL AND value > 0 ORDER BY start") == want3)
        #expect(E2E.scalar(withProfile.db, "SELECT count(*) FROM events WHERE subtype = 'temp_basal'") == "1")
    }

    /// AndroidAPS writes a BG Check's glucose without `units`: 5.49 is mmol/L (≤ 35), 99 mg/dL.
    /// An entry's `units` is honoured.
    @Test func bgCheckUnitsAreInferredAndEntryUnitsHonoured() throws {
        let text = """
            [{"_id":"b1","eventType":"BG Check","created_at":"2024-03-01T08:00:00.000Z","glucose":5.49,"glucoseType":"Finger","enteredBy":"openaps://AndroidAPS"},
             {"_id":"b2","eventType":"BG Check","created_at":"2024-03-01T09:00:00.000Z","glucose":142,"glucoseType":"Finger"},
             {"_id":"b3","eventType":"BG Check","created_at":"2024-03-01T10:00:00.000Z","glucose":6.1,"units":"mmol"}]
            """
        let r = try importFile("treatments.json", text)
        #expect(r.code == 0, "\(r.stderr)")
        let want: [[String]] = [["99.0", "64"], ["142.0", "0"], ["110.0", "64"]]
        #expect(E2E.query(r.db, "SELECT value, flags & 64 FROM measurements WHERE metric = 'blood_glucose' ORDER BY start") == want)

        let entries = try importFile("entries.json", #"[{"type":"mbg","mbg":7.2,"units":"mmol","date":1709280000000}]"#)
        #expect(entries.code == 0, "\(entries.stderr)")
        #expect(E2E.scalar(entries.db, "SELECT value FROM measurements") == "130.0")
    }

    /// The quarantine's `raw` is exactly the rejected document, not a window of the file.
    @Test func quarantineRawIsExactlyTheDocument() throws {
        let bad = #"{"_id":{"$oid":"5cd4212a614598d46eb40a25"},"date":1.557404718571e+12,"sgv":"high","type":"sgv"}"#
        let text = """
            {"_id":{"$oid":"5cd4212a614598d46eb40a22"},"date":1.557405318571e+12,"sgv":103,"type":"sgv"}
            \(bad)
            {"_id":{"$oid":"5cd4212a614598d46eb40a28"},"date":1.557405018571e+12,"sgv":105,"type":"sgv"}

            """
        let r = try importFile("entries.json", text)
        #expect(r.code == 3, "\(r.stderr)")
        let lines = try String(contentsOf: r.quarantine, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let row = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(row?["raw"] as? String == bad)
        #expect(row?["line"] as? Int == 2)

        // A line that is not JSON at all: that line, not the lines after it.
        let broken = #"{"_id":{"$oid":"5cd4212a614598d46eb40a26"},"date":1.557404718571e+12,"sgv":104,"type":"sgv""#
        let lines0 = text.split(separator: "\n", omittingEmptySubsequences: false)
        let b = try importFile("entries.json", ([String(lines0[0]), broken] + lines0.dropFirst().map(String.init)).joined(separator: "\n"))
        let row3 = try String(contentsOf: b.quarantine, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first { $0["line"] as? Int == 2 }
        #expect(row3?["raw"] as? String == broken)

        // In an array too: the element, from its `{` to its `}`.
        let element = #"{"sgv":"x","date":1557405318571}"#
        let a = try importFile("array.json", "[{\"sgv\":100,\"date\":1557405018571},\n \(element),\n {\"sgv\":101,\"date\":1557404718571}]")
        let row2 = try JSONSerialization.jsonObject(with: Data(try String(contentsOf: a.quarantine, encoding: .utf8).utf8)) as? [String: Any]
        #expect(row2?["raw"] as? String == element)
    }

    /// The nightscout-exporter CSV's `# TREATMENTS` section lands (it was dropped silently).
    @Test func exporterCSVTreatmentsLand() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let file = E2E.samples.appendingPathComponent("nightscout/cgm_format_nightscout-data-with-treatments.csv").path
        let r = try E2E.run(["import", file, "--db", db.path, "--timezone", "America/Chicago"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "nightscout-exporter")
        #expect(E2E.scalar(db, "SELECT count(*) || ' ' || sum(value) FROM measurements WHERE metric = 'glucose'").hasPrefix("100 "))
        // 25 SMB + 3 Bolus, one Carb Correction of 24 g, 71 Temp Basal rows (the exporter writes no rate).
        let got = E2E.query(db, "SELECT kind, subtype, count(*), round(sum(insulin_u), 3), sum(carbs_g) FROM events GROUP BY 1, 2 ORDER BY 1, 2")
        let want2: [[String]] = [["insulin", "bolus", "28", "9.7", "NULL"], ["insulin", "temp_basal", "71", "NULL", "NULL"],
                                 ["meal", "", "1", "NULL", "24.0"]]
        #expect(got == want2)
        #expect(try E2E.run(["import", file, "--db", db.path, "--timezone", "America/Chicago"]).code == 0)
        #expect(E2E.scalar(db, "SELECT (SELECT count(*) FROM events) || ' ' || (SELECT count(*) FROM measurements)") == "100 100")
    }

    /// One plausibility table: 300 U and 2,500 g land from Nightscout and Tidepool as they do from a CSV.
    @Test func oneTableForEverySource() throws {
        let ns = try importFile("treatments.json", """
            [{"eventType":"Meal Bolus","created_at":"2024-03-01T08:00:00Z","insulin":300,"carbs":2500}]
            """)
        #expect(ns.code == 0, "\(ns.stderr)")
        let want: [[String]] = [["insulin", "300.0", "NULL"], ["meal", "NULL", "2500.0"]]
        #expect(E2E.query(ns.db, "SELECT kind, insulin_u, carbs_g FROM events ORDER BY kind") == want)
        let tp = try importFile("tidepool.json", """
            [{"id":"b1","type":"bolus","subType":"normal","normal":300,"time":"2024-03-01T07:34:05.000Z","timezoneOffset":-300,"deviceId":"InsOmn-1","uploadId":"u1"},
             {"id":"f1","type":"food","time":"2024-03-01T09:30:05.000Z","timezoneOffset":-300,"deviceId":"tidepool-mobile","uploadId":"u1","nutrition":{"carbohydrate":{"net":2500,"units":"grams"}}}]
            """)
        #expect(tp.code == 0, "\(tp.stderr)")
        let want2: [[String]] = [["insulin", "300.0", "NULL"], ["meal", "NULL", "2500.0"]]
        #expect(E2E.query(tp.db, "SELECT kind, insulin_u, carbs_g FROM events ORDER BY kind") == want2)
        // Past the table's bounds (1,000 U, 5,000 g) both still refuse.
        let over = try importFile("treatments.json", #"[{"eventType":"Bolus","created_at":"2024-03-01T08:00:00Z","insulin":1200}]"#)
        #expect(over.code == 3)
        #expect(try String(contentsOf: over.quarantine, encoding: .utf8).contains("0–1000 U"))
    }
}
