import Foundation
import Testing

/// Tandem's current t:connect CSV export: a UTF-8 BOM, a short preamble, then sections of their own
/// headers — CGM readings (`DeviceType,SerialNumber,Description,EventDateTime,Readings (mg/dL)`, EGV
/// rows), meter readings (`…,BG (mg/dL),Note`) and a bolus table keyed by `CompletionDateTime`.
/// Rebuilt from the section headers users document for their own exports (no public original found).
@Suite struct TandemCurrentExportTests {
    static let text = "\u{FEFF}" + """
        t:connect Data Export
        Patient Name,Sample Patient
        Device,t:slim X2 Insulin Pump,Serial Number,1234567
        Software Version,7.6
        Report Generated On,2024-03-02T09:00:00
        Report Range,2024-03-01,2024-03-01

        DeviceType,SerialNumber,Description,EventDateTime,Readings (mg/dL)
        t:slim X2 Insulin Pump,1234567,EGV,2024-03-01T08:00:12,142
        t:slim X2 Insulin Pump,1234567,EGV,2024-03-01T08:05:12,150
        t:slim X2 Insulin Pump,1234567,EGV,2024-03-01T08:10:12,161

        DeviceType,SerialNumber,Description,EventDateTime,BG (mg/dL),Note
        t:slim X2 Insulin Pump,1234567,BG,2024-03-01T07:58:40,138,

        Type,BolusType,BolusDeliveryMethod,BG (mg/dL),SerialNumber,CompletionDateTime,InsulinDelivered,FoodDelivered,CorrectionDelivered,CarbSize
        Bolus,Food,Standard,138,1234567,2024-03-01T08:01:30,4.25,4.00,0.25,48
        Bolus,Correction,Standard,,1234567,2024-03-01T12:30:05,1.10,0.00,1.10,0

        """.replacingOccurrences(of: "\n", with: "\r\n")

    /// Problem list: the current t:connect export (EGV and BG rows, BOM) was "unknown format".
    @Test func currentExportImportsWholeByContent() throws {
        let imported = try ImportedExport(Self.text, file: "tconnect.csv", timezone: "America/New_York", format: "tandem-tconnect")
        defer { imported.remove() }
        let db = imported.db
        let m = E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric ORDER BY metric")
        #expect(m == [["blood_glucose", "1", "138.0"], ["glucose", "3", "453.0"]])
        let e = E2E.query(db, "SELECT kind, count(*), sum(coalesce(insulin_u, 0.0)), sum(coalesce(carbs_g, 0.0)) FROM events GROUP BY kind ORDER BY kind")
        #expect(e == [["insulin", "2", "5.35", "0.0"], ["meal", "1", "0.0", "48.0"]])
        let again = try E2E.run(imported.args)
        #expect(again.code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    /// A Tandem Source "Daily Timeline Data Export" (layout of the real Tandem Mobi export in
    /// Tests/Fixtures/real/tandem: rows padded with commas to 20 cells, hours unpadded, no final newline).
    static let sourceExport = [
        "Tandem Diabetes Care Inc.,,,,,,,,,,,,,,,,,,,",
        "Source Daily Timeline Data Export,,,,,,,,,,,,,,,,,,,",
        "Patient Name,Sample Patient,,,,,,,,,,,,,,,,,,",
        "Patient DOB,\"Jan 1, 1900\",,,,,,,,,,,,,,,,,,",
        "Report Generated On,\"Mar 11, 2024 at 12:33:29 PM\",,,,,,,,,,,,,,,,,,",
        ",,,,,,,,,,,,,,,,,,,",
        "DeviceType,SerialNumber,Description,EventDateTime,Readings (mg/dL),,,,,,,,,,,,,,,",
        "Tandem Mobi system,9000001,EGV,2024-03-12 9:03:46,154,,,,,,,,,,,,,,,",
        "DeviceType,SerialNumber,Description,EventDateTime,BG (mg/dL),Note,,,,,,,,,,,,,,",
        "Tandem Mobi system,9000001,BG,2024-03-12 12:48:55,112,,,,,,,,,,,,,,,",
        ",,,,,,,,,,,,,,,,,,,",
        "Type,BolusType,BolusDeliveryMethod,BG (mg/dL),SerialNumber,CompletionDateTime,InsulinDelivered,FoodDelivered,"
            + "CorrectionDelivered,CompletionStatusDesc,BolexStartDateTime,BolexCompletionDateTime,BolexInsulinDelivered,"
            + "BolexCompletionStatusDesc,StandardPercent,Duration (mins),CarbSize,TargetBG (mg/dL),CorrectionFactor,CarbRatio",
        "Bolus,Food,Extended,112,9000001,2024-03-12 13:49:20,4.32,4.32,0,Completed,2024-03-12 12:49:20,2024-03-12 13:49:20,"
            + "1.72,Completed,60,60,65,0,0,0",
        "Bolus,Auto,Auto,250,9000001,2024-03-12 1:03:08,1.06,0,0,Completed,,,,,100,0,0,110,50,0",
    ].joined(separator: "\n")

    /// The real Tandem Source export's extended bolus: InsulinDelivered (4.32) is the whole bolus and
    /// BolexInsulinDelivered (1.72) its extended part, so adding them stored 6.04 U; it ran from its
    /// Bolex start (12:49:20) to completion, not from the completion on.
    @Test func extendedBolusIsInsulinDeliveredFromItsBolexStart() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("source.csv"), db = dir.appendingPathComponent("h.sqlite")
        try E2E.write(Self.sourceExport, to: csv)
        let r = try E2E.run(["import", csv.path, "--db", db.path, "--timezone", "America/New_York",
                             "--quarantine", dir.appendingPathComponent("q.ndjson").path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == "tandem-tconnect")
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0")
        let e = E2E.query(db, "SELECT insulin_u, datetime(start, 'unixepoch'), end - start, source FROM events "
                              + "WHERE kind = 'insulin' ORDER BY start")
        // 12:49:20 EDT is 16:49:20 UTC; the extended part ends an hour later.
        #expect(e == [["1.06", "2024-03-12 05:03:08", "0", "Tandem Mobi system"],
                      ["4.32", "2024-03-12 16:49:20", "3600", "Tandem Mobi system"]])
        #expect(E2E.query(db, "SELECT metric, count(*) FROM measurements GROUP BY metric ORDER BY metric")
                == [["blood_glucose", "1"], ["glucose", "1"]])
    }
}
