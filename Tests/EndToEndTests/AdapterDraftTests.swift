import Foundation
import Testing

/// `healthpipe adapters draft FILE`: an adapter drafted from an unknown CSV loads, detects the file
/// and imports every value, and "unknown format" points the user to it.
@Suite struct AdapterDraftTests {
    /// Drafts an adapter for `csv` into a folder of its own and imports `csv` with it.
    func draftAndImport(_ csv: String, name: String = "diary.csv", timezone: String = "Europe/Berlin")
        throws -> (draft: E2E.Result, yaml: String, importRun: E2E.Result, db: URL, args: [String]) {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent(name), adapters = dir.appendingPathComponent("adapters")
        try E2E.write(csv, to: file)
        let out = adapters.appendingPathComponent("draft.yaml")
        let draft = try E2E.run(["adapters", "draft", file.path, "-o", out.path])
        let yaml = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        let db = dir.appendingPathComponent("h.sqlite")
        let args = ["import", file.path, "--db", db.path, "--plugin-path", adapters.path, "--timezone", timezone]
        return (draft, yaml, try E2E.run(args), db, args)
    }

    @Test func europeanMeterDiaryWithPreambleDecimalCommaAndSplitDateTime() throws {
        let csv = "Export from GlucoMeter X;;;\r\nName;Jane;;\r\n\r\n"
            + "Datum;Uhrzeit;Blutzucker (mmol/L);Kohlenhydrate (g);Bolus (IE);Notiz\r\n"
            + "24.03.2024;07:45;6,2;45;4,5;Frühstück\r\n24.03.2024;12:10;8,1;60;6;\r\n"
            + "24.03.2024;18:30;5,4;;;\"spät, müde\"\r\n25.03.2024;07:40;13,9;30;2;\r\n"
        let r = try draftAndImport(csv)
        #expect(r.draft.code == 0, "\(r.draft.stderr)")
        #expect(r.yaml.contains("date_format: \"%d.%m.%Y\"") && r.yaml.contains("decimal_comma: true"), "\(r.yaml)")
        #expect(r.yaml.contains("\"Blutzucker (mmol/L)\": { metric: glucose, unit: mmol/L }"), "\(r.yaml)")
        #expect(r.importRun.code == 0, "\(r.importRun.stderr)")
        // 6.2, 8.1, 5.4, 13.9 mmol/L → 112 + 146 + 97 + 250 mg/dL (each rounded after × 18.0156).
        #expect(E2E.query(r.db, "SELECT count(*), sum(value) FROM measurements WHERE metric = 'glucose'") == [["4", "605.0"]])
        // The note on a row with only a reading lands as a note event: no text is lost.
        #expect(E2E.query(r.db, "SELECT kind, count(*), sum(amount) FROM events GROUP BY kind ORDER BY kind")
                == [["insulin", "3", "12.5"], ["meal", "3", "135.0"], ["note", "1", "0.0"]])
        #expect(E2E.scalar(r.db, "SELECT note FROM events WHERE kind = 'note'") == "spät, müde")
        // The local day is the file's (Europe/Berlin: 07:45 is 06:45 UTC in March before the change).
        #expect(E2E.scalar(r.db, "SELECT min(start) FROM measurements WHERE metric = 'glucose'") == "1711262700")
        let again = try E2E.run(r.args)
        #expect(again.code == 0)
        #expect(E2E.scalar(r.db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func usStyleExportWithTwelveHourClockAndMgdl() throws {
        let csv = "Date Time,Reading [mg/dL],Carbs,Notes\n"
            + "03/24/2024 07:45 AM,112,45,breakfast\n03/24/2024 12:10 PM,146,,\n03/25/2024 06:30 PM,97,30,\n"
        let r = try draftAndImport(csv, name: "export.csv", timezone: "America/Chicago")
        #expect(r.draft.code == 0, "\(r.draft.stderr)")
        #expect(r.yaml.contains("format: \"%m/%d/%Y %I:%M %p\""), "\(r.yaml)")
        #expect(r.yaml.contains("note_column: \"Notes\""), "\(r.yaml)")
        #expect(r.importRun.code == 0, "\(r.importRun.stderr)")
        #expect(E2E.query(r.db, "SELECT count(*), sum(value) FROM measurements WHERE metric = 'glucose'") == [["3", "355.0"]])
        #expect(E2E.query(r.db, "SELECT count(*), sum(carbs_g) FROM events WHERE kind = 'meal'") == [["2", "75.0"]])
    }

    @Test func ambiguousDayAndMonthAreFlaggedInTheDraft() throws {
        let csv = "Time;Glucose\n01/02/2024 08:00;6,1\n02/02/2024 08:00;7,0\n"
        let r = try draftAndImport(csv)
        #expect(r.draft.code == 0, "\(r.draft.stderr)")
        #expect(r.yaml.contains("# CHECK: every day in the sample is 12 or less"), "\(r.yaml)")
        #expect(r.draft.stderr.contains("check: day/month order"))
    }

    @Test func aFileAlreadyReadIsNotDraftedAndAFileWithoutTimesIsExplained() throws {
        let dir = E2E.tempDir()
        let ns = dir.appendingPathComponent("entries.csv")
        // nightscout-entries-csv, a shipped adapter, already reads this layout.
        try E2E.write("\"2024-03-24T07:45:00.000Z\"\t1711266300000\t112\t\"Flat\"\t\"xDrip-DexcomG6\"\n", to: ns)
        let known = try E2E.run(["adapters", "draft", ns.path])
        #expect(known.code == 2)
        #expect(known.stderr.contains("already read as nightscout-entries-csv"), "\(known.stderr)")

        let noTime = dir.appendingPathComponent("weights.csv")
        try E2E.write("Name,Glucose\nA,100\nB,120\n", to: noTime)
        let r = try E2E.run(["adapters", "draft", noTime.path])
        #expect(r.code == 2)
        #expect(r.stderr.contains("no column of dates and times"), "\(r.stderr)")
    }

    /// A LibreView export whose record-type column was renamed (and cut to fewer columns) is not
    /// claimed; the error says it is nearest to libreview and which words it lacks.
    @Test func unknownFormatNamesTheNearestFormatAndWhatItLacks() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("libre-edited.csv")
        try E2E.write("Device,Serial Number,Device Timestamp,Kind,Historic Glucose mg/dL,Scan Glucose mg/dL\n"
                      + "FreeStyle LibreLink,ABC123,15-01-2026 08:30,0,112,\n", to: file)
        let r = try E2E.run(["import", file.path, "--db", dir.appendingPathComponent("h.sqlite").path, "--timezone", "UTC"])
        #expect(r.code == 1)
        #expect(r.stderr.contains("closest is libreview (has 'device', 'serial number', 'device timestamp', 'historic glucose', "
                                  + "'scan glucose'; lacks 'record type')"), "\(r.stderr)")
    }

    /// Every vendor format declares its signature words, so an edited export of each is named: a
    /// Clarity file without its Event Subtype/Source/Transmitter columns, a CareLink file cut to two
    /// columns, a Tandem file without its preamble words, a Lingo file with a renamed value column.
    @Test(arguments: [
        ("clarity.csv", "Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Glucose Value (mg/dL)\n1,2024-01-01T10:00:00,EGV,abc\n",
         "closest is dexcom-clarity (has 'timestamp (', 'event type', 'glucose value'; lacks 'event subtype'"),
        ("carelink.csv", "Zeile;BG Reading (mg/dL);Sensor Glucose (mg/dL)\n1;x;y\n", "closest is medtronic-carelink (has 'bg reading (', 'sensor glucose ('"),
        ("tandem.csv", "DeviceType,SerialNumber,EventDateTime\nx,1,y\n", "closest is tandem-tconnect (has 'devicetype', 'serialnumber', 'eventdatetime'"),
        ("lingo.csv", "Time of Glucose Reading [T=(local time) +/- (time zone offset)],Glucose\n2025-01-01T10:00-06:00,x\n",
         "closest is lingo (has 'time of glucose reading"),
    ])
    func everyVendorFormatIsNamedAsTheNearest(file: String, text: String, expected: String) throws {
        let dir = E2E.tempDir(), path = dir.appendingPathComponent(file)
        defer { try? FileManager.default.removeItem(at: dir) }
        try E2E.write(text, to: path)
        let r = try E2E.run(["import", path.path, "--db", dir.appendingPathComponent("h.sqlite").path, "--timezone", "UTC"])
        #expect(r.code == 1)
        #expect(r.stderr.contains(expected), "\(r.stderr)")
    }

    @Test func unknownFormatPointsToTheDraftCommand() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("x.csv")
        try E2E.write("Datum;Uhrzeit;Wert\n24.03.2024;07:45;6,2\n", to: file)
        let r = try E2E.run(["import", file.path, "--db", dir.appendingPathComponent("h.sqlite").path])
        #expect(r.code == 1)
        #expect(r.stderr.contains("unknown format") && r.stderr.contains("healthpipe adapters draft"), "\(r.stderr)")
    }
}
