import Foundation
import Testing
import ZIPFoundation

/// Clarity exports in other languages than English, imported by content (no `--format`): the header
/// words of `ClarityVocabulary`, decimal commas, `;` separators, localized Low/High and event codes,
/// and, for a language the table does not know, Clarity's structure alone. Each of these failed on the
/// English/Spanish-only reader ("unknown format", or readings stored as notes).
@Suite struct ClarityLanguagesTests {
    /// Imports `text` as a file named without any hint of its format; returns the database.
    private func importText(_ text: String, zone: String, name: String = "export.csv") throws -> (URL, E2E.Result) {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent(name), db = dir.appendingPathComponent("h.sqlite")
        try E2E.write(text, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", zone])
        return (db, r)
    }

    /// French header (the words of a user's file) with quoted decimal commas in mmol/L and `Bas`.
    @Test func frenchHeadersWithDecimalCommas() throws {
        let csv = """
            Index,Horodateur (AAAA-MM-JJThh:mm:ss),Type d'événement,Sous-type d'événement,Informations sur le patient,\
            Informations sur l'appareil,ID de l'appareil source,Valeur de glycémie (mmol/L),Valeur d'insuline (u),\
            Valeur des glucides (grammes),Durée (hh:mm:ss),Taux de variation de la glycémie (mmol/L/min),\
            Heure de l'émetteur (nombre entier long),ID de l'émetteur
            1,,Prénom,,Alex,,,,,,,,
            2,,Appareil,,,Dexcom G7 Mobile App,iOS G7,,,,,,
            3,2026-03-02T08:00:00,EGV,,,,iOS G7,"4,9",,,,,1200,123456789012
            4,2026-03-02T08:05:00,EGV,,,,iOS G7,"5,3",,,,,1500,123456789012
            5,2026-03-02T08:10:00,EGV,,,,iOS G7,Bas,,,,,1800,123456789012
            6,2026-03-02T08:12:00,Insuline,Action rapide,,,iOS G7,,"2,5",,,,
            7,2026-03-02T08:13:00,Glucides,,,,iOS G7,,,45,,,

            """
        let (db, r) = try importText(csv, zone: "Europe/Paris")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT value, flags & 1 FROM measurements WHERE metric = 'glucose' ORDER BY start")
                == [["88.0", "0"], ["95.0", "0"], ["40.0", "1"]])
        #expect(E2E.query(db, "SELECT kind, insulin_u, carbs_g FROM events ORDER BY start")
                == [["insulin", "2.5", "NULL"], ["meal", "NULL", "45.0"]])
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0")
    }

    /// The real Japanese G7 export (excerpt): Japanese header and metadata, 食事/活動/空腹時グルコース events.
    @Test func japaneseExportLandsWithItsEvents() throws {
        let file = E2E.fixtures.appendingPathComponent("real/clarity/clarity-ja-g7-mgdl.csv")
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Asia/Tokyo"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT metric, count(*) FROM measurements GROUP BY 1 ORDER BY 1")
                == [["blood_glucose", "2"], ["glucose", "135"]])
        #expect(E2E.query(db, "SELECT kind, count(*), sum(carbs_g) FROM events GROUP BY 1 ORDER BY 1")
                == [["exercise", "7", "NULL"], ["meal", "3", "115.0"]])
        #expect(E2E.query(db, "SELECT DISTINCT intensity FROM events WHERE intensity IS NOT NULL ORDER BY 1")
                == [["light"], ["medium"]])
        // The Device row (デバイス) names the model: readings carry Dexcom G7.
        #expect(E2E.scalar(db, "SELECT DISTINCT json_extract(d.attributes, '$.model') FROM measurements m "
                           + "JOIN devices d ON d.id = m.device_id WHERE m.metric = 'glucose'") == "G7")
    }

    /// German, `;`-separated, unquoted decimal commas, `Niedrig` and `Hoch`.
    @Test func semicolonSeparatedGermanWithNiedrigAndHoch() throws {
        let csv = """
            Index;Zeitstempel (JJJJ-MM-TTThh:mm:ss);Ereignistyp;Ereignisuntertyp;Patienteninformationen;Geräteinformationen;\
            Quellgeräte-ID;Glukosewert (mmol/l);Insulinwert (E);Kohlenhydratwert (Gramm);Dauer (hh:mm:ss);\
            Änderungsrate Glukose (mmol/l/min);Transmitterzeit (Long Integer);Transmitter-ID
            1;;Vorname;;Alex;;;;;;;;
            2;2026-03-02T08:00:00;EGV;;;;android G6;5,8;;;;;900;8AB123
            3;2026-03-02T08:05:00;EGV;;;;android G6;Niedrig;;;;;1200;8AB123
            4;2026-03-02T08:10:00;EGV;;;;android G6;Hoch;;;;;1500;8AB123

            """
        let (db, r) = try importText(csv, zone: "Europe/Berlin")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT value, flags & 3 FROM measurements ORDER BY start")
                == [["104.0", "0"], ["40.0", "1"], ["400.0", "2"]])
    }

    /// A broken row in a localized file is quarantined with its line and reason; every other row lands.
    @Test func brokenRowsOfALocalizedFileAreQuarantinedNotLost() throws {
        let csv = """
            Index;Zeitstempel (JJJJ-MM-TTThh:mm:ss);Ereignistyp;Ereignisuntertyp;Patienteninformationen;Geräteinformationen;\
            Quellgeräte-ID;Glukosewert (mmol/l);Insulinwert (E);Kohlenhydratwert (Gramm);Dauer (hh:mm:ss);\
            Änderungsrate Glukose (mmol/l/min);Transmitterzeit (Long Integer);Transmitter-ID
            1;2026-03-02T08:00:00;EGV;;;;android G6;5,8;;;;;900;8AB123
            2;2026-03-02T08:05:00;EGV;;;;android G6;fünf;;;;;1200;8AB123
            3;2026-03-02T08:10:00;EGV;;;;android G6;6,1;;;;;1500;8AB123
            4;2026-03-02T08:15:00,EGV,,,,android G6,6.3,,,,,1800,8AB123
            5;2026-03-02T08:20:00;EGV;;;;android G6;6,4;;;;;2100;8AB123

            """
        let (db, r) = try importText(csv, zone: "Europe/Berlin")
        #expect(r.code == 3, "\(r.stderr)")  // done, with quarantined rows
        #expect(E2E.count(db, "measurements") == 3)
        let quarantine = (try? String(contentsOf: db.deletingLastPathComponent().appendingPathComponent("h.quarantine.ndjson"),
                                      encoding: .utf8)) ?? ""
        let lines = quarantine.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("\"line\":3") && $0.contains("not a number") })
        #expect(lines.contains { $0.contains("\"line\":5") })
    }

    /// Spanish exports name EGV rows `Niveles estimados de glucosa`: readings, not notes.
    @Test func spanishEstimatedGlucoseRowsAreReadings() throws {
        let csv = """
            Índice,Marca temporal (AAAA-MM-DDThh:mm:ss),Tipo de evento,Subtipo de evento,Información del paciente,\
            Información del dispositivo,Id. del dispositivo de origen,Nivel de glucosa (mg/dl),Nivel de insulina (u),\
            Nivel de carbohidratos (gramos),Duración (hh:mm:ss),Tasa de cambio de glucosa (mg/dl/min),\
            Tiempo del transmisor (número entero largo),Id. del transmisor
            1,,Nombre,,Alex,,,,,,,,
            2,2026-03-02T08:00:00,Niveles estimados de glucosa,,,,iOS G6,120,,,,,900,8AB123
            3,2026-03-02T08:05:00,Niveles estimados de glucosa,,,,iOS G6,124,,,,,1200,8AB123

            """
        let (db, r) = try importText(csv, zone: "Europe/Madrid")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY 1") == [["glucose", "2", "244.0"]])
        #expect(E2E.count(db, "events") == 0)
    }

    /// A language no table lists (here Polish-like words): found by Clarity's structure — the
    /// `…Thh:mm:ss` timestamp cell, the `(mg/dL)` glucose cell, the columns in Clarity's order —
    /// and its rows by their cells: untimed preamble rows are metadata, the one naming a device is
    /// the Device row, a row with carbs is a meal.
    @Test func unknownLanguageImportsByStructure() throws {
        let csv = """
            "Indeks","Znacznik czasu (RRRR-MM-DDThh:mm:ss)","Typ zdarzenia","Podtyp zdarzenia","Informacje o pacjencie",\
            "Informacje o urządzeniu","Identyfikator urządzenia źródłowego","Wartość glukozy (mg/dL)","Wartość insuliny (j.)",\
            "Wartość węglowodanów (gramy)","Czas trwania (hh:mm:ss)","Szybkość zmian glukozy (mg/dL/min)",\
            "Czas nadajnika (liczba całkowita)","Identyfikator nadajnika"
            "1","","Imię","","Alex","","","","","","","",""
            "2","","Urządzenie","","","Dexcom G7 Mobile App","android G7","","","","","",""
            "3","","Alert","Wysoki","","","android G7","250","","","","",""
            "4","2026-03-02T08:00:00","EGV","","","","android G7","120","","","","","900","123456789012"
            "5","2026-03-02T08:05:00","EGV","","","","android G7","126","","","","","1200","123456789012"
            "6","2026-03-02T08:07:00","Węglowodany","","","","android G7","","","30","","",""

            """
        let (db, r) = try importText(csv, zone: "Europe/Warsaw")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY 1") == [["glucose", "2", "246.0"]])
        #expect(E2E.query(db, "SELECT kind, carbs_g FROM events") == [["meal", "30.0"]])
        #expect(E2E.scalar(db, "SELECT DISTINCT json_extract(d.attributes, '$.model') FROM measurements m "
                           + "JOIN devices d ON d.id = m.device_id") == "G7")
    }

    /// The Excel export with French or Japanese header cells and codes reads like its English original
    /// (same vocabulary, same structure rules).
    static let workbookWords: [String: [String: String]] = [
        "fr": ["Timestamp (YYYY-MM-DDThh:mm:ss)": "Horodateur (AAAA-MM-JJThh:mm:ss)",
               "Event Type": "Type d&apos;événement",
               "Glucose Value (mmol/L)": "Valeur de glycémie (mmol/L)",
               "Device Info": "Informations sur l&apos;appareil",
               "FirstName": "Prénom", "LastName": "Nom", "Device": "Appareil", "Alert": "Alerte"],
        "ja": ["Index": "索引", "Timestamp (YYYY-MM-DDThh:mm:ss)": "タイムスタンプ (YYYY-MM-DDThh:mm:ss)",
               "Event Type": "イベント タイプ", "Patient Info": "患者情報", "Device Info": "デバイス情報",
               "Source Device ID": "ソースデバイス ID", "Glucose Value (mmol/L)": "グルコース値 (mmol/L)",
               "Insulin Value (u)": "インスリン値 (単位)", "Carb Value (grams)": "炭水化物値 (グラム)",
               "Duration (hh:mm:ss)": "期間 (hh:mm:ss)", "Transmitter ID": "トランスミッター ID",
               "FirstName": "名", "LastName": "姓", "Device": "デバイス", "Alert": "アラート", "Carbs": "食事",
               "Exercise": "活動"],
    ]

    @Test(arguments: ["fr", "ja"])
    func localizedWorkbookReadsLikeTheEnglishOne(_ language: String) throws {
        let dir = E2E.tempDir()
        let english = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.xlsx")
        let localized = dir.appendingPathComponent("export.xlsx")
        try Self.rewriteStrings(of: english, to: localized, Self.workbookWords[language] ?? [:])
        var dumps: [[[String]]] = []
        for (name, file) in [("en", english), (language, localized)] {
            let db = dir.appendingPathComponent("\(name).sqlite")
            let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Europe/Berlin"])
            #expect(r.code == 0, "\(r.stderr)")
            dumps.append(E2E.query(db, "SELECT metric, start, value, flags, line FROM measurements ORDER BY start, metric")
                         + E2E.query(db, "SELECT kind, subtype, start, carbs_g, insulin_u, intensity FROM events ORDER BY start, kind"))
        }
        #expect(dumps[1].count == 129)
        #expect(dumps[0] == dumps[1])
    }

    /// Copies a workbook, replacing whole shared strings (`<t>old</t>`).
    static func rewriteStrings(of source: URL, to target: URL, _ replace: [String: String]) throws {
        let from = try Archive(url: source, accessMode: .read, pathEncoding: nil)
        let to = try Archive(url: target, accessMode: .create, pathEncoding: nil)
        for entry in from {
            var data = Data()
            _ = try from.extract(entry) { data.append($0) }
            if entry.path == "xl/sharedStrings.xml" {
                var xml = String(decoding: data, as: UTF8.self)
                for (old, new) in replace { xml = xml.replacingOccurrences(of: "<t>\(old)</t>", with: "<t>\(new)</t>") }
                data = Data(xml.utf8)
            }
            let bytes = data
            try to.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { pos, size in
                bytes.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
    }

    /// German as users' own parsers read it: `Ereignisart`, `EGV`, `Glukosewert (mmol/l)`, `Niedrig`, and the file
    /// re-encoded as Windows-1252 (a study pipeline opens these exports as latin-1): the header's umlauts are not
    /// UTF-8, the words and the structure still place every column and each reading lands.
    @Test func germanWindows1252ExportWithEreignisart() throws {
        let csv = "Index,Zeitstempel (JJJJ-MM-TTThh:mm:ss),Ereignisart,Ereignis-Subtyp,Patienteninfo,Ger\u{E4}teinfo,"
            + "Quellger\u{E4}te-ID,Glukosewert (mmol/l),Insulinwert (E),Kohlenhydratwert (Gramm),Dauer (hh:mm:ss),"
            + "\u{C4}nderungsrate (mmol/l/min),Transmitterzeit (Long Integer),Transmitter-ID\r\n"
            + "1,,Vorname,,J\u{FC}rgen,,,,,,,,,\r\n"
            + "2,,Ger\u{E4}t,,,Dexcom G6 Mobile App,android G6,,,,,,,\r\n"
            + "3,2026-03-02T08:00:00,EGV,,,,android G6,5.8,,,,,900,8AB123\r\n"
            + "4,2026-03-02T08:05:00,EGV,,,,android G6,Niedrig,,,,,1200,8AB123\r\n"
            + "5,2026-03-02T08:10:00,EGV,,,,android G6,6.1,,,,,1500,8AB123\r\n"
        let bytes = try #require(csv.data(using: .windowsCP1252))
        #expect(String(data: bytes, encoding: .utf8) == nil)  // really not UTF-8
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("export.csv"), db = dir.appendingPathComponent("h.sqlite")
        try bytes.write(to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Europe/Berlin"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT value, flags & 3 FROM measurements ORDER BY start")
                == [["104.0", "0"], ["40.0", "1"], ["110.0", "0"]])
    }
}
