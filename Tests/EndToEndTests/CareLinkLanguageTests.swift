import Foundation
import Testing

/// CareLink exports in other languages and layouts, imported by content (no --format). The German
/// "Datenexport-Datei" is the older CareLink Personal layout with every header word translated and
/// day-first two-digit-year dates; no public original was found, so these files are rebuilt from the
/// English v1.0.1 layout (Tests/Fixtures/real/carelink) with the German words users' scripts read
/// (`BZ-Messwert (mg/dl)`, `Abgegebene Bolusmenge (IE)`, `BolusExpert: KH-Eingabe (Gramm)`, `%d.%m.%y`).
@Suite struct CareLinkLanguageTests {
    static let germanHeader = [
        "Index", "Datum", "Zeit", "Zeitstempel", "Neue Gerätezeit", "BZ-Messwert (mg/dl)", "ID des verb. BZ-Messgeräts",
        "Basalrate (IE/h)", "Tempor. Basalrate (IE/h)", "Art d. tempor. Basalrate", "Dauer Temp Basal (hh:mm:ss)", "Bolustyp",
        "Gewähltes Bolusvolumen (IE)", "Abgegebene Bolusmenge (IE)", "Bolusdauer (hh:mm:ss)", "Füllart",
        "Abgegebenes Füllvolumen (IE)", "Unterbrechen", "Rücklauf", "BolusExpert-Schätzung (IE)",
        "BolusExpert: KH-Eingabe (Gramm)", "BolusExpert: BZ-Eingabe (mg/dl)", "Alarm", "Sensorkalibrierung BZ (mg/dl)",
        "Sensorglukose (mg/dl)", "ISIG-Wert", "Ereignismarkierung",
    ]

    /// One row as cells by header name; the rest empty.
    static func row(_ index: Int, _ date: String, _ time: String, _ values: [String: String]) -> [String] {
        germanHeader.map { name in
            switch name {
            case "Index": return String(index)
            case "Datum": return date
            case "Zeit": return time
            case "Zeitstempel": return "\(date) \(time)"
            default: return values[name] ?? ""
            }
        }
    }

    static let rows: [[String]] = [
        row(1, "13.01.16", "00:05:00", ["Sensorglukose (mg/dl)": "112", "ISIG-Wert": "21,50"]),
        row(2, "13.01.16", "00:10:00", ["Sensorglukose (mg/dl)": "118", "ISIG-Wert": "22,04"]),
        row(3, "13.01.16", "07:30:00", ["BZ-Messwert (mg/dl)": "131", "ID des verb. BZ-Messgeräts": "BG1234"]),
        row(4, "13.01.16", "07:31:00", ["BolusExpert-Schätzung (IE)": "4,5", "BolusExpert: KH-Eingabe (Gramm)": "45"]),
        row(5, "13.01.16", "07:31:05", ["Bolustyp": "Normal", "Gewähltes Bolusvolumen (IE)": "4,5",
                                        "Abgegebene Bolusmenge (IE)": "4,5"]),
        row(6, "13.01.16", "08:00:00", ["Basalrate (IE/h)": "0,85"]),
        row(7, "13.01.16", "12:00:00", ["Bolustyp": "Dual (Rechteck)", "Gewähltes Bolusvolumen (IE)": "2",
                                        "Abgegebene Bolusmenge (IE)": "2", "Bolusdauer (hh:mm:ss)": "01:00:00"]),
        row(8, "13.01.16", "13:00:00", ["Unterbrechen": "Benutzerunterbrechung"]),
        row(9, "13.01.16", "14:00:00", ["Rücklauf": "Rücklauf"]),
    ]

    /// The preamble of the "Datenexport-Datei", then the header and rows, joined by `separator`.
    /// `index: false` drops the Index column and the preamble: the header then opens with `Datum`.
    static func file(separator: String, index: Bool = true) -> String {
        func line(_ cells: [String]) -> String {
            (index ? cells : Array(cells.dropFirst())).map { c in c.contains(separator) ? "\"\(c)\"" : c }
                .joined(separator: separator)
        }
        let preamble = [
            "Medtronic Diabetes CareLink Personal Datenexport-Datei (v1.0.1) ", "PATIENTENINFORMATIONEN",
            "Name\(separator)Muster Patient", "Berichtszeitraum\(separator)13.01.16\(separator)bis\(separator)13.01.16",
            "GERÄTEINFORMATIONEN", "Pumpe:\(separator)MiniMed 640G - 1511/1711\(separator)NG1234567H\(separator)",
            "Daten exportiert am\(separator)14.01.16 10:05", "GERÄTEDATEN (9 Datensätze)",
            "Datenbereich\(separator)13.01.16 00:00:00\(separator)bis\(separator)13.01.16 14:00:00",
        ]
        return ((index ? preamble : []) + [line(germanHeader)] + rows.map(line)).joined(separator: "\r\n") + "\r\n"
    }

    func importText(_ text: String) throws -> (E2E.Result, URL, URL) {
        let dir = E2E.tempDir()
        let csv = dir.appendingPathComponent("Datenexport.csv"), db = dir.appendingPathComponent("h.sqlite")
        try E2E.write(text, to: csv)
        let r = try E2E.run(["import", csv.path, "--db", db.path, "--timezone", "Europe/Berlin",
                             "--quarantine", dir.appendingPathComponent("q.ndjson").path])
        return (r, db, dir)
    }

    /// Problem list: an old German CareLink Personal export was "unknown format". Every value lands.
    @Test(arguments: [(";", true), (",", true), (";", false)])
    func germanDatenexportImportsWhole(separator: String, index: Bool) throws {
        let (r, db, dir) = try importText(Self.file(separator: separator, index: index))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == "medtronic-carelink")
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0")
        let m = E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric ORDER BY metric")
        #expect(m == [["basal_rate", "1", "0.85"], ["blood_glucose", "1", "131.0"], ["glucose", "2", "230.0"],
                      ["isig", "2", "43.54"]])
        let e = E2E.query(db, """
            SELECT kind, count(*), sum(coalesce(insulin_u, 0.0)), sum(coalesce(carbs_g, 0.0)) FROM events GROUP BY kind ORDER BY kind
            """)
        #expect(e == [["device", "2", "0.0", "0.0"], ["insulin", "2", "6.5", "0.0"], ["meal", "1", "0.0", "45.0"]])
        // Day-first two-digit-year dates in Berlin winter time: 13.01.16 00:05 is 2016-01-12T23:05Z.
        #expect(E2E.scalar(db, "SELECT min(start) FROM measurements WHERE metric = 'glucose'") == "1452639900")
        // The pump named in the preamble is the source.
        #expect(E2E.scalar(db, "SELECT group_concat(DISTINCT source) FROM events WHERE kind = 'insulin'")
                == (index ? "MiniMed 640G - 1511/1711" : "Medtronic CareLink"))
    }

    /// A header in a language the word table does not know: CareLink keeps its columns in the same
    /// order in every language, so a 39-column header of words is read by position as the v1.0.1
    /// layout (the real Paradigm 522 excerpt with every header word replaced), with a warning.
    @Test(arguments: [true, false])
    func unknownLanguageReadByStructure(keepProductLine: Bool) throws {
        let real = E2E.fixtures.appendingPathComponent("real/carelink/carelink-en-paradigm522-v101.csv")
        var lines = try String(contentsOf: real, encoding: .utf8).components(separatedBy: "\n")
        let h = try #require(lines.firstIndex { $0.hasPrefix("Index,") })
        lines[h] = (1...39).map { "Kolumna \($0)" }.joined(separator: ",")
        if !keepProductLine { lines[0] = "Eksport danych" }
        let (r, db, dir) = try importText(lines.joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.contains("read by position"))
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == "medtronic-carelink")
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0")
        // The same rows as the English file (Tests/Fixtures/real/carelink/expected.json).
        #expect(E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric")
                == [["basal_rate", "1", "1.4"], ["blood_glucose", "57", "6836.0"]])
        #expect(E2E.query(db, "SELECT kind, count(*) FROM events GROUP BY kind ORDER BY kind")
                == [["device", "11"], ["insulin", "24"], ["meal", "10"]])
    }

    /// The Dutch "Data Export File" with `;`: header words as a Dutch user's own importer reads them
    /// (`Datum`, `Tijd`, `Sensorglucose (mmol/l)`, `Boluswizard KH-invoer (gram)`, `Onbewerkt: type`,
    /// `Onbewerkt: waarden`). Before, the carbs column and the raw record columns were not known, so the
    /// meal and the scheduled basal rate (`BasalProfileStart` `RATE=`) were lost.
    @Test func dutchRawTypeAndCarbColumns() throws {
        let header = ["Index", "Datum", "Tijd", "Sensorglucose (mmol/l)", "Boluswizard KH-invoer (gram)", "Onbewerkt: type",
                      "Onbewerkt: waarden"]
        let rows = [
            ["1", "13-01-16", "07:30:00", "", "40", "BolusWizardBolusEstimate", "CARB_INPUT=40"],
            ["2", "13-01-16", "08:00:00", "", "", "BasalProfileStart", "PATTERN_NAME=standaard, PROFILE_INDEX=1, RATE=0,85, START_TIME=28800000"],
            ["3", "13-01-16", "08:05:00", "6,1", "", "GlucoseSensorData", "AMOUNT=110"],
        ]
        let text = ([header] + rows).map { $0.joined(separator: ";") }.joined(separator: "\r\n") + "\r\n"
        let (r, db, dir) = try importText(text)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == "medtronic-carelink")
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0")
        #expect(E2E.query(db, "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric ORDER BY metric")
                == [["basal_rate", "1", "0.85"], ["glucose", "1", "110.0"]])
        #expect(E2E.query(db, "SELECT kind, sum(carbs_g) FROM events GROUP BY kind") == [["meal", "40.0"]])
    }
}
