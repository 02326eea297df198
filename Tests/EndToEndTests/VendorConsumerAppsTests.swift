import Foundation
import Testing

/// Consumer-app exports that were "unknown format" before the declarative adapters for them
/// (plugins/adapters, docs/vendors/consumer-apps.md): each is imported by content, without
/// --format, and must land whole. Run with HEALTHPIPE_BINARY pointing at an older build to see
/// these fail there. mySugr, Levels, Nutrisense, German Glooko, mylife and YourLoops files are real-export excerpts (Tests/Fixtures/real); the
/// others follow the layouts of the apps' writers and of parsers of users' real exports, since no
/// real file of theirs was found.
@Suite struct VendorConsumerAppsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// A corpus file (relative to Tests/Fixtures/real) or inline text written to `name`.
        var corpus: String?
        var text: String?
        var format: String
        var measurements: [String: Int]
        var events: [String: Int]
        /// Rows of a type the adapter cannot read (Nutrisense's blood pressure text): quarantined, exit 3.
        var quarantined = 0
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "mySugr en", corpus: "mysugr/mysugr-en-us-mgdl.csv", format: "mysugr",
             measurements: ["blood_glucose": 54], events: ["insulin": 42, "meal": 22, "exercise": 2]),
        Case(name: "mySugr da", corpus: "mysugr/mysugr-da-mmol.csv", format: "mysugr",
             measurements: ["blood_glucose": 67], events: ["insulin": 55, "meal": 25, "note": 1]),
        Case(name: "Levels", corpus: "levels/levels-export.csv", format: "levels", measurements: ["glucose": 120], events: [:]),
        Case(name: "Nutrisense", corpus: "nutrisense/nutrisense-export.csv", format: "nutrisense",
             measurements: ["glucose": 70, "blood_glucose": 3, "step_count": 3], events: ["exercise": 3, "meal": 8, "note": 1],
             quarantined: 3),
        // German header words as two published parsers read them (no real German export found).
        Case(name: "mySugr de.csv", text: """
            "Datum","Zeit","Tags","Blutzuckermessung (mg/dL)","Bolusinjektionseinheiten (Pen)","Basalinjektionseinheiten","Bolusinjektionseinheiten (Pump)","Bolus (Mahlzeit)","Insulin (Korrektur)","Mahlzeitkohlenhydrate (Broteinheiten, Faktor 12)","Mahlzeitbeschreibung","Aktivitätsdauer (Minuten)","Notiz"
            "14.02.2021","19:59:00","Nach dem Essen","132","","","","","","","","",""
            "14.02.2021","18:05:00","Vor dem Essen","141","","","","4","1","3,5","Nudeln","",""
            "14.02.2021","07:30:00","","","","14","","","","","","30","Sensor gewechselt"

            """, format: "mysugr", measurements: ["blood_glucose": 2], events: ["insulin": 3, "meal": 1, "exercise": 1]),
        Case(name: "xdrip-export.csv", text: """
            DAY;TIME;UDT_CGMS;BG_LEVEL;CH_GR;BOLUS;REMARK
            14.05.2026;19:20;115;;;;
            14.05.2026;19:25;121;;;;
            14.05.2026;19:31;;124;;;
            14.05.2026;19:40;;;45.0;4.5;pizza||large
            14.05.2026;21:00;;;0.0;2.0;
            14.05.2026;22:00;;;;;sensor changed

            """, format: "xdrip-sidiary",
             measurements: ["glucose": 2, "blood_glucose": 1], events: ["insulin": 2, "meal": 1, "note": 1]),
        Case(name: "ContourCSVReport_en.csv", text: "\u{FEFF}#,Date and Time,BGValue [mg/dL],Meal Marker,Data Source,Notes,Activity,Meal  [g],Medication,Location\r\n"
             + "1,05/04/2026 7:18 AM,108,Fasting,Meter,,,,,\r\n2,05/04/2026 12:30 PM,90,,Meter,after walk,,45,,\r\n3,05/05/2026 8:00 AM,HI,,Meter,,,,,\r\n",
             format: "contour-diabetes-app", measurements: ["blood_glucose": 3], events: ["meal": 1]),
        Case(name: "ContourCSVReport_nb.csv", text: "\u{FEFF}#,Dato og klokkeslett,BGValue[mmol/L],Måltidsmarkering,Datakilde,Notater,Aktivitet,Måltid[g],Medisin,Sted\n"
             + "1,\"08.06.2026 13:47:35\",\"4,3\",\"Ingen markering\",\"Måler\",\"\",\"\",\"\",\"\",\"\"\n"
             + "2,\"08.06.2026 18:02:10\",\"7,9\",\"Før måltid\",\"Måler\",\"middag\",\"\",\"60\",\"\",\"\"\n"
             + "3,\"09.06.2026 07:05:00\",\"5,1\",\"Fastende\",\"Måler\",\"dårlig søvn\",\"\",\"\",\"\",\"\"\n",
             format: "contour-diabetes-app", measurements: ["blood_glucose": 3], events: ["meal": 1, "note": 1]),
        // The English mmol/L header issue 40 reports from a real report: `Meal[g]` without a space, no Location
        // column. Its meal cell was not read (the note stood alone as a note event); now it is the meal.
        Case(name: "ContourCSVReport_en_mmol.csv", text: "\u{FEFF}#,Date and Time,BGValue[mmol/L],Meal Marker,Data Source,Notes,Activity,Meal[g],Medication\n"
             + "1,05/04/2026 7:18 AM,6.2,Fasting,Meter,,,,\n2,05/04/2026 12:30 PM,7.9,After Meal,Meter,lunch,,45,\n",
             format: "contour-diabetes-app", measurements: ["blood_glucose": 2], events: ["meal": 1]),
        Case(name: "ContourCSVReport_de.csv", text: "\u{FEFF}#,Datum und Zeit,Messungen [mg/dL],Mahlzeit-Markierung,Notizen\n"
             + "1,07.08.26 07:18,108,Nüchtern,\n2,07.08.26 12:30,LO,,zittrig\n",
             format: "contour-diabetes-app", measurements: ["blood_glucose": 2], events: ["note": 1]),
        Case(name: "cgm_data_1.csv", text: "Name:Test Person, Date Range:2025-05-31 - 2025-08-17\nTimestamp,CGM Glucose Value (mg/dl),Serial Number\n"
             + "8/17/2025 0:15,112,1266847\n8/17/2025 0:10,118,1266847\n", format: "glooko-cgm", measurements: ["glucose": 2], events: [:]),
        Case(name: "bg_data_1.csv", text: "Name:Test Person, Date Range:2025-05-31 - 2025-08-17\nTimestamp,Glucose Value (mg/dl),Manual Reading,Serial Number\n"
             + "8/16/2025 7:02,131,Yes,1266847\n", format: "glooko-bg", measurements: ["blood_glucose": 1], events: [:]),
        Case(name: "bolus_data_1.csv", text: "Name:Test Person, Date Range:2025-05-31 - 2025-08-17\n"
             + "Timestamp,Insulin Type,Blood Glucose Input (mg/dl),Carbs Input (g),Carbs Ratio,Insulin Delivered (U),Initial Delivery (U),Extended Delivery (U),Serial Number\n"
             + "8/16/2025 18:05,Normal,140,45,10,4.5,4.5,,1266847\n8/16/2025 21:00,Normal,201,0,10,0.8,0.8,,1266847\n",
             format: "glooko-bolus", measurements: [:], events: ["insulin": 2, "meal": 1]),
        Case(name: "basal_data_1.csv", text: "Name:Test Person, Date Range:2025-05-31 - 2025-08-17\n"
             + "Timestamp,Insulin Type,Duration (minutes),Percentage (%),Rate,Insulin Delivered (U),Serial Number\n"
             + "8/16/2025 0:00,Scheduled,60,,0.8,0.8,1266847\n", format: "glooko-basal", measurements: [:], events: ["insulin": 1]),
        // Real exports found later: German Glooko, Ypsomed mylife, Diabeloop YourLoops (Tests/Fixtures/real).
        Case(name: "Glooko de cgm", corpus: "glooko/glooko-de-cgm.csv", format: "glooko-cgm", measurements: ["glucose": 150], events: [:]),
        Case(name: "Glooko de bg", corpus: "glooko/glooko-de-bg.csv", format: "glooko-bg", measurements: ["blood_glucose": 1], events: [:]),
        Case(name: "Glooko de bolus", corpus: "glooko/glooko-de-bolus.csv", format: "glooko-bolus", measurements: [:], events: ["insulin": 5, "meal": 5]),
        Case(name: "Glooko de basal_data_1.csv", text: "Name:XXX XXX,Datumsbereich:14.03.2026 - 14.03.2026,,,,,\r\n"
             + "Zeitstempel,Insulin-Typ,Dauer (Minuten),Prozentsatz (%),Rate,Abgegebenes Insulin (E),Seriennummer\r\n"
             + "14.03.2026 21:12,Eingeplant,60,,\"0,7\",\"0,7\",00000000-000000000\r\n14.03.2026 20:05,Eingeplant,7,,\"0,7\",,00000000-000000000",
             format: "glooko-basal", measurements: [:], events: ["insulin": 1]),
        Case(name: "mylife de", corpus: "mylife/mylife-de-logbook.csv", format: "mylife",
             measurements: ["blood_glucose": 1], events: ["insulin": 8, "meal": 8]),
        // The same layout with CRLF line ends and a BOM (the real file's line ends are not certain).
        Case(name: "mylife de crlf.csv", text: "\u{FEFF}\"Tag\";\"Datum\";\"Uhrzeit\";\"Ereignis\";\"Wert\";\"Einheit\";\"Information\";\"Notiz\"\r\n"
             + "\"Fr.\";\"06.02.26\";\"10.00\";\"Auto mode An\";\"N/A\";;\"Startdatum: 06.02.26 10.00Endtermin: 06.02.26 19:44\";\r\n"
             + "\"Fr.\";\"06.02.26\";\"12:17\";\"Bolus\";\"6,60\";\"U\";\"Bolusvorschlag: 5.60 U\";\"Pizza\"\r\n"
             + "\"Fr.\";\"06.02.26\";\"12:17\";\"Kohlenhydrate\";\"60\";\"g KH\";;\r\n",
             format: "mylife", measurements: [:], events: ["insulin": 1, "meal": 1]),
        Case(name: "YourLoops cbg", corpus: "yourloops/yourloops-cbg.csv", format: "yourloops-cgm", measurements: ["glucose": 150], events: [:]),
        Case(name: "YourLoops bolus", corpus: "yourloops/yourloops-bolus.csv", format: "yourloops-bolus", measurements: [:], events: ["insulin": 73]),
        Case(name: "YourLoops meals", corpus: "yourloops/yourloops-meals.csv", format: "yourloops-meals", measurements: [:], events: ["meal": 14]),
        Case(name: "YourLoops activities", corpus: "yourloops/yourloops-physicalactivities.csv", format: "yourloops-activity",
             measurements: [:], events: ["exercise": 1]),
    ]

    @Test(arguments: cases)
    func importsByContent(_ c: Case) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file: URL
        if let corpus = c.corpus {
            file = E2E.fixtures.appendingPathComponent("real").appendingPathComponent(corpus)
        } else {
            file = dir.appendingPathComponent(c.name)
            try E2E.write(c.text ?? "", to: file)
        }
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Europe/Berlin",
                             "--quarantine", dir.appendingPathComponent("q.ndjson").path])
        #expect(r.code == (c.quarantined > 0 ? 3 : 0), "\(c.name): exit \(r.code)\n\(r.stderr)")
        #expect(!r.stderr.contains("unknown format"), "\(c.name): \(r.stderr)")
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == c.format)
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == String(c.quarantined))
        var measured: [String: Int] = [:], events: [String: Int] = [:]
        for row in E2E.query(db, "SELECT metric, count(*) FROM measurements GROUP BY metric") where row.count == 2 {
            measured[row[0]] = Int(row[1])
        }
        for row in E2E.query(db, "SELECT kind, count(*) FROM events GROUP BY kind") where row.count == 2 {
            events[row[0]] = Int(row[1])
        }
        #expect(measured == c.measurements, "\(c.name) measurements")
        #expect(events == c.events, "\(c.name) events")
    }

    /// A meter's HI is stored as its upper limit with the above-range flag, not rejected.
    @Test func contourHiIsTheFlaggedLimit() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ContourCSVReport.csv")
        try E2E.write(Self.cases.first { $0.name == "ContourCSVReport_en.csv" }!.text!, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "America/New_York"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT value, flags FROM measurements ORDER BY start") == [["108.0", "0"], ["90.0", "0"], ["600.0", "2"]])
        // 05/04/2026 7:18 AM in New York (EDT, -4) is 11:18 UTC.
        #expect(E2E.scalar(db, "SELECT min(start) FROM measurements") == String(1_777_893_480))
    }

    /// mySugr in German: bread units × 12 g, decimal comma, and the two-digit-year Contour dates
    /// read as 20yy (not the year 26).
    @Test func germanUnitsAndTwoDigitYears() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["mySugr de.csv", "ContourCSVReport_de.csv"] {
            let file = dir.appendingPathComponent(name)
            try E2E.write(Self.cases.first { $0.name == name }!.text!, to: file)
            let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "UTC"])
            #expect(r.code == 0, "\(r.stderr)")
        }
        #expect(E2E.scalar(db, "SELECT carbs_g FROM events WHERE kind = 'meal'") == "42.0")
        #expect(E2E.scalar(db, "SELECT note FROM events WHERE kind = 'meal'") == "Nudeln")
        // 07.08.26 07:18 UTC
        #expect(E2E.scalar(db, "SELECT min(start) FROM measurements WHERE source = 'Contour'") == String(1_786_087_080))
        #expect(E2E.scalar(db, "SELECT value || '/' || flags FROM measurements WHERE source = 'Contour' ORDER BY start DESC LIMIT 1") == "20.0/1")
    }
}
