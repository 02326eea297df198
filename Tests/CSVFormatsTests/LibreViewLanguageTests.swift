import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// LibreView exports in other languages than English and Spanish, found by content: German, French
/// and Traditional Chinese by their header words, a language the vocabulary lacks (Polish here) by
/// structure, and the Spanish clinic report whose scan column was not known. Each of these failed on
/// the adapter that only knew English words ("unknown format", or every scan row rejected).
@Suite struct LibreViewLanguageTests {
    static let german = "Gerät,Seriennummer,Gerätezeitstempel,Aufzeichnungstyp,Glukosewert-Verlauf mg/dL,Glukose-Scan mg/dL,"
        + "Nicht numerisches schnellwirkendes Insulin,Schnellwirkendes Insulin (Einheiten),Nicht numerische Nahrungsdaten,"
        + "Kohlenhydrate (Gramm),Kohlenhydrate (Portionen),Nicht numerisches Depotinsulin,Depotinsulin (Einheiten),Notizen,"
        + "Glukose-Teststreifen mg/dL,Keton mmol/L,Mahlzeiteninsulin (Einheiten),Korrekturinsulin (Einheiten),"
        + "Insulin-Änderung durch Anwender (Einheiten)"
    static let french = "Appareil,Numéro de série,Horodatage de l'appareil,Type d'enregistrement,Historique de la glycémie mg/dL,"
        + "Numérisation de la glycémie mg/dL,Insuline à action rapide sans valeur numérique,Insuline à action rapide (unités),"
        + "Alimentation sans valeur numérique,Glucides (grammes),Glucides (portions),Insuline à action longue sans valeur numérique,"
        + "Insuline à action longue (unités),Remarques,Glycémie par bandelette mg/dL,Cétone mmol/L,Insuline repas (unités),"
        + "Correction insuline (unités),Insuline modifiée par l'utilisateur (unités)"
    /// Written for this test in LibreView's column order; no word of it is in the vocabulary.
    static let polish = "Urządzenie,Numer seryjny,Sygnatura czasowa urządzenia,Typ rekordu,Historia stężenia glukozy mg/dL,"
        + "Skan stężenia glukozy mg/dL,Insulina szybko działająca nienumeryczna,Insulina szybko działająca (jednostki),"
        + "Posiłek nienumeryczny,Węglowodany (gramy),Węglowodany (porcje),Insulina długo działająca nienumeryczna,"
        + "Insulina długo działająca (jednostki),Uwagi,Stężenie glukozy z paska mg/dL,Ketony mmol/L,Insulina posiłkowa (jednostki),"
        + "Insulina korekcyjna (jednostki),Zmiana insuliny przez użytkownika (jednostki)"
    static let chinese = "裝置,序號,裝置時間戳記,記錄類型,歷史葡萄糖 mg/dL,掃描葡萄糖 mg/dL,非數值速效胰島素,速效胰島素（單位）,"
        + "非數值食品,碳水化合物（克）,碳水化合物（份）,非數值長效胰島素,長效胰島素（單位）,備註,葡萄糖試紙 mg/dL,血酮 mmol/L,"
        + "餐時胰島素（單位）,校正胰島素（單位）,使用者變更胰島素（單位）,歷史資料的酮體 mmol/L,掃描酮體 mmol/L"

    /// A row of `width` cells: device, serial, timestamp, type, then `cells` by column.
    static func row(_ ts: String, _ type: Int, _ cells: [Int: String] = [:], width: Int = 19, sep: String = ",") -> String {
        var c = Array(repeating: "", count: width)
        c[0] = "FreeStyle LibreLink"
        c[1] = "0A1B2C3D-4E5F-4061-8273-9A0B1C2D3E4F"
        c[2] = ts
        c[3] = String(type)
        for (i, v) in cells { c[i] = v }
        return c.joined(separator: sep)
    }

    /// Every record type once: historic, scan, strip, rapid + long insulin, food, note, and an empty note.
    static func allKinds(_ day: String, width: Int = 19) -> [String] {
        [row("\(day) 08:00", 0, [4: "110"], width: width), row("\(day) 08:03", 1, [5: "118"], width: width),
         row("\(day) 08:05", 2, [14: "121"], width: width), row("\(day) 08:10", 4, [7: "\"4,5\"", 12: "12"], width: width),
         row("\(day) 08:11", 5, [9: "45"], width: width), row("\(day) 08:12", 6, [13: "Spaziergang"], width: width),
         row("\(day) 08:13", 6, width: width)]
    }

    func run(_ text: String, zone: String = "Europe/Berlin") throws -> SourceOutput {
        let path = try SourceHarness.file(text)
        return try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: zone), dateOrder: nil))
    }

    func detect(_ text: String) -> Int {
        libreViewComponent.detect!(FileSniff(path: "x.csv", prefix: Array(text.utf8)))
    }

    func expectAllKinds(_ r: SourceOutput, _ what: String) {
        #expect(r.input.rejected == 0, "\(what): \(r.quarantined)")
        #expect(r.measurements.filter { $0.metric == Metrics.glucose }.map(\.value) == [110, 118], "\(what)")
        #expect(r.measurements.filter { $0.metric == Symbol("blood_glucose") }.map(\.value) == [121], "\(what)")
        #expect(r.events.filter { $0.kind == .insulin }.map(\.insulin) == [4.5, 12], "\(what)")
        #expect(r.events.filter { $0.kind == .meal }.map(\.carbs) == [45], "\(what)")
        #expect(r.events.filter { $0.kind == .note }.map(\.note) == ["Spaziergang"], "\(what)")
    }

    @Test func germanHeaderAfterPreambleAndBlankLine() throws {
        let text = (["Glukose-Werte,Erstellt am,25-02-2021 09:55 UTC,Erstellt von,Tester", "", Self.german]
                    + Self.allKinds("14-02-2021")).joined(separator: "\n") + "\n"
        #expect(detect(text) == 95)
        let r = try run(text)
        expectAllKinds(r, "de")
        // 08:00 in Berlin (CET) is 07:00 UTC; 14-02 can only be day-first.
        #expect(r.measurements[0].start == SourceHarness.utc(2021, 2, 14, 7, 0))
        #expect(r.measurements[1].source == Symbol("FreeStyle LibreLink (scan)"))
    }

    @Test func frenchHeader() throws {
        let text = (["Valeur de glycémie,Créé le,03-07-2024 10:31 AM UTC,Créé par,Tester", Self.french] + Self.allKinds("17-06-2024"))
            .joined(separator: "\n") + "\n"
        #expect(detect(text) == 95)
        // The preamble alone (the header beyond the sniff) is known too.
        #expect(detect("Valeur de glycémie,Créé le,03-07-2024 10:31 AM UTC,Créé par,Tester\n") == 80)
        expectAllKinds(try run(text, zone: "Europe/Paris"), "fr")
    }

    @Test func traditionalChineseWithTwoKetoneColumns() throws {
        var lines = ["葡萄糖資料,產生於,2026-03-15 13:11 UTC,產生者,測試", Self.chinese] + Self.allKinds("2026/03/14", width: 21)
        lines.append(Self.row("2026/03/14 09:00", 0, [4: "130", 19: "0.3"], width: 21))
        let text = lines.joined(separator: "\n") + "\n"
        #expect(detect(text) == 95)
        #expect(detect("葡萄糖資料,產生於,2026-03-15 13:11 UTC,產生者,測試\n") == 80)
        let r = try run(text, zone: "Asia/Taipei")
        #expect(r.input.rejected == 0, "\(r.quarantined)")
        #expect(r.measurements.filter { $0.metric == Metrics.glucose }.map(\.value) == [110, 118, 130])
        #expect(r.measurements.filter { $0.metric == Metrics.ketone }.map(\.value) == [0.3])
        #expect(r.events.filter { $0.kind == .insulin }.map(\.insulin) == [4.5, 12])
    }

    @Test func polishHeaderIsReadByStructure() throws {
        let text = (["Dane glukozy,Wygenerowano,20-03-2024 10:00 UTC,Wygenerowane przez,Tester", Self.polish]
                    + Self.allKinds("19-03-2024")).joined(separator: "\n") + "\n"
        #expect(detect(text) == 90)
        expectAllKinds(try run(text, zone: "Europe/Warsaw"), "pl")
    }

    @Test func unknownLanguageWithoutUnitWordsTakesMmolFromTheValues() throws {
        let header = (0..<19).map { "Kolumna \($0 + 1)" }.joined(separator: ",")
        let text = ([header, Self.row("19-03-2024 08:00", 0, [4: "5.5"]), Self.row("19-03-2024 08:15", 0, [4: "6.1"])])
            .joined(separator: "\n") + "\n"
        #expect(detect(text) == 90)
        let r = try run(text, zone: "UTC")
        #expect(r.measurements.map(\.value) == [99, 110])  // 5.5 × 18.0156 = 99.09; 6.1 → 109.9
    }

    @Test func aNineteenColumnTableThatIsNotLibreViewIsNotClaimed() {
        let header = (0..<19).map { "c\($0)" }.joined(separator: ",")
        let rows = (0..<5).map { i in (0..<19).map { j in j == 2 ? "19-03-2024 08:0\(i)" : j == 3 ? "x\(i)" : "\(i * j)" }
            .joined(separator: ",") }
        #expect(detect(([header] + rows).joined(separator: "\n") + "\n") == 0)
    }

    @Test func spanishPatientReportScansLand() throws {
        let header = "Dispositivo;Número de serial;Sello de tiempo del dispositivo;Tipo de registro;Historial de glucosa mg/dL;"
            + "Escaneo de glucosa mg/dL;Insulina de acción rápida no numérica;Insulina de acción rápida (unidades);"
            + "Alimento no numérico;Carbohidratos (gramos);Carbohidratos (porciones);Insulina de acción larga no numérica;"
            + "Insulina de acción larga (unidades);Notas;Tira reactiva para glucosa mg/dL;Cuerpos cetónicos mmol/L;"
            + "Comida e insulina (unidades);Insulina de corrección (unidades);Insulina del cambio de usuario (unidades)"
        let text = (["Informe del paciente;Generado el;2020/11/05 12:00 UTC;Generado por;Tester", "Tester;1970/01/01", header,
                     Self.row("2020/10/12 08:00", 0, [4: "104"], sep: ";"), Self.row("2020/10/12 08:04", 1, [5: "111"], sep: ";"),
                     Self.row("2020/10/12 08:09", 1, [5: "HI"], sep: ";"), Self.row("2020/10/12 08:10", 4, [7: "3,5"], sep: ";")])
            .joined(separator: "\n") + "\n"
        let r = try run(text, zone: "Europe/Madrid")
        #expect(r.input.rejected == 0, "\(r.quarantined)")
        #expect(r.measurements.map(\.value) == [104, 111, 500])
        #expect(r.measurements[1].source == Symbol("FreeStyle LibreLink (scan)"))
        #expect(r.events.map(\.insulin) == [3.5])
    }

    @Test func twoNotesInOneMinuteAreBothKept() throws {
        let text = ([LibreViewFixture.libre3Header, Self.row("19-03-2024 08:00", 6, [13: "gym"]),
                     Self.row("19-03-2024 08:00", 6, [13: "oatmeal"]), Self.row("19-03-2024 08:00", 6, [13: "gym"]),
                     Self.row("19-03-2024 08:05", 5, [9: "30", 13: "toast"]), Self.row("19-03-2024 08:05", 5, [9: "30", 13: "jam"])])
            .joined(separator: "\n") + "\n"
        let r = try run(text, zone: "UTC")
        #expect(r.events.map(\.note) == ["gym; oatmeal", "toast; jam"])
        #expect(r.input.events == 2 && r.input.rejected == 0)
    }

    @Test func ketoneTestRowsAreKetoneReadings() throws {
        let text = ([LibreViewFixture.libre3Header, Self.row("19-03-2024 08:00", 3, [15: "0.6"]), Self.row("19-03-2024 08:10", 3)])
            .joined(separator: "\n") + "\n"
        let r = try run(text, zone: "UTC")
        #expect(r.measurements.map(\.value) == [0.6] && r.measurements[0].metric == Metrics.ketone)
        #expect(r.events.isEmpty && r.input.rejected == 0)
    }

    @Test func everySpellingNamesOneRole() {
        var seen: [String: LibreViewRole] = [:]
        for language in LibreViewVocabulary.languages {
            for (role, words) in language.words {
                for w in words {
                    let s = LibreViewVocabulary.stem(w)
                    #expect(seen[s] == nil || seen[s] == role, "'\(w)' (\(language.code)) is \(role) and \(seen[s]!)")
                    seen[s] = role
                }
            }
        }
        #expect(LibreViewVocabulary.stem("Historic Glucose(mg/dL)") == "historic glucose")
        #expect(LibreViewVocabulary.stem("\u{FEFF}Numero de serie") == LibreViewVocabulary.stem("Número de serie"))
    }

    @Test func olderDesktopSoftwareLayoutWithTabsAndTimeChanges() throws {
        let header = ["ID", "Time", "Record Type", "Historic Glucose (mg/dL)", "Scan Glucose (mg/dL)",
                      "Non-numeric Rapid-Acting Insulin", "Rapid-Acting Insulin (units)", "Non-numeric Food", "Carbohydrates (grams)",
                      "Non-numeric Long-Acting Insulin", "Long-Acting Insulin (units)", "Notes", "Strip Glucose (mg/dL)",
                      "Ketone (mmol/L)", "Meal Insulin (units)", "Correction Insulin (units)", "User Change Insulin (units)",
                      "Previous Time", "Updated Time"]
        func row(_ id: Int, _ time: String, _ type: Int, _ cells: [Int: String]) -> String {
            var c = Array(repeating: "", count: header.count)
            c[0] = String(id)
            c[1] = time
            c[2] = String(type)
            for (i, v) in cells { c[i] = v }
            return c.joined(separator: "\t")
        }
        let text = (["Tester", header.joined(separator: "\t"), row(1, "2016/06/13 08:00", 0, [3: "104"]),
                     row(2, "2016/06/13 08:05", 1, [4: "98"]), row(3, "2016/06/13 08:06", 6, [17: "2016/06/13 08:06", 18: "2016/06/13 09:06"]),
                     row(4, "2016/06/13 09:10", 5, [8: "30"])]).joined(separator: "\r\n") + "\r\n"
        #expect(detect(text) == 95)
        let r = try run(text, zone: "Europe/Madrid")
        #expect(r.input.rejected == 0, "\(r.quarantined)")
        #expect(r.measurements.map(\.value) == [104, 98])
        #expect(r.events.map(\.note) == ["time changed from 2016/06/13 08:06 to 2016/06/13 09:06", nil])
    }

    @Test func germanDottedDatesBOMAndCRLF() throws {
        let text = "\u{FEFF}" + ([Self.german, Self.row("14.02.2021 08:00", 0, [4: "99"]), Self.row("14.02.2021 08:15", 0, [4: "101"])])
            .joined(separator: "\r\n") + "\r\n"
        #expect(detect(text) == 95)
        let r = try run(text)
        #expect(r.measurements.map(\.value) == [99, 101] && r.input.rejected == 0)
        #expect(r.measurements[0].start == SourceHarness.utc(2021, 2, 14, 7, 0))
    }
}
