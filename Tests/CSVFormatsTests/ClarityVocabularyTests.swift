import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// The Clarity vocabulary table and the header reading built on it: every language's header resolves
/// to Clarity's columns, the words of one role never match another role's cell, and an event code
/// means one thing in every language.
@Suite struct ClarityVocabularyTests {
    /// Real or reported header lines per language, split into cells.
    static let headers: [(language: String, cells: [String], unit: GlucoseUnit)] = [
        ("en", ["Index", "Timestamp (YYYY-MM-DDThh:mm:ss)", "Event Type", "Event Subtype", "Patient Info", "Device Info",
                "Source Device ID", "Glucose Value (mg/dL)", "Insulin Value (u)", "Carb Value (grams)", "Duration (hh:mm:ss)",
                "Glucose Rate of Change (mg/dL/min)", "Transmitter Time (Long Integer)", "Transmitter ID"], .mgdl),
        ("ja", ["\u{FEFF}索引", "タイムスタンプ (YYYY-MM-DDThh:mm:ss)", "イベント タイプ", "イベント サブタイプ", "患者情報", "デバイス情報",
                "ソースデバイス ID", "グルコース値 (mg/dL)", "インスリン値 (単位)", "炭水化物値 (グラム)", "期間 (hh:mm:ss)",
                "グルコース変化率 (mg/dL/min)", "トランスミッター時刻 (長整数)", "トランスミッター ID"], .mgdl),
        ("es", ["Índice", "Marca temporal (AAAA-MM-DDThh:mm:ss)", "Tipo de evento", "Subtipo de evento", "Información del paciente",
                "Información del dispositivo", "Id. del dispositivo de origen", "Nivel de glucosa (mg/dl)", "Nivel de insulina (u)",
                "Nivel de carbohidratos (gramos)", "Duración (hh:mm:ss)", "Tasa de cambio (mg/dl/min)",
                "Tiempo del transmisor", "Id. del transmisor"], .mgdl),
        ("fr", ["Index", "Horodateur (AAAA-MM-JJThh:mm:ss)", "Type d'événement", "Sous-type d'événement", "Informations sur le patient",
                "Informations sur l'appareil", "ID de l'appareil source", "Valeur de glycémie (mmol/L)", "Valeur d'insuline (u)",
                "Valeur des glucides (grammes)", "Durée (hh:mm:ss)", "Taux de variation (mmol/L/min)", "Heure de l'émetteur",
                "ID de l'émetteur"], .mmol),
        ("de", ["Index", "Zeitstempel (JJJJ-MM-TTThh:mm:ss)", "Ereignistyp", "Ereignisuntertyp", "Patienteninformationen",
                "Geräteinformationen", "Quellgeräte-ID", "Glukosewert (mmol/l)", "Insulinwert (E)", "Kohlenhydratwert (Gramm)",
                "Dauer (hh:mm:ss)", "Änderungsrate (mmol/l/min)"], .mmol),
        // The German cells parsers of users' own exports read (`Ereignisart`, `Glukosewert (mg/dl)`), ;-separated.
        ("de-ereignisart", ["Index", "Zeitstempel (JJJJ-MM-TTThh:mm:ss)", "Ereignisart", "Ereignisuntertyp", "Patienteninformationen",
                "Geräteinformationen", "Quellgeräte-ID", "Glukosewert (mg/dl)", "Insulinwert (E)", "Kohlenhydratwert (Gramm)",
                "Dauer (hh:mm:ss)", "Änderungsrate (mg/dl/min)"], .mgdl),
    ]

    @Test(arguments: headers.map(\.language))
    func headerResolvesToClaritysColumns(_ language: String) throws {
        let h = try #require(Self.headers.first { $0.language == language })
        let c = try #require(ClarityColumns(header: h.cells))
        let places: [Int] = [c.timestamp, c.eventType, c.subtype, c.deviceInfo, c.sourceDevice, c.glucose, c.insulin, c.carbs, c.duration]
        #expect(places == [1, 2, 3, 5, 6, 7, 8, 9, 10])
        #expect(c.glucoseUnit == h.unit)
        if h.cells.count == 14 {
            #expect(c.transmitterTime == 12 && c.transmitter == 13)
        } else {
            #expect(c.transmitter == Optional<Int>.none)
        }
        #expect(ClarityColumns.looksLikeHeader(h.cells))
    }

    /// Within each language, a role's words match only that role's cell of the language's header.
    @Test func wordsOfOneRoleNeverMatchAnotherRolesCell() {
        for h in Self.headers {
            let cells = h.cells.map(HeaderText.normalize)
            for (role, words) in ClarityVocabulary.headerWords {
                for (i, cell) in cells.enumerated() where words.contains(where: { cell.hasPrefix($0) }) {
                    #expect(i == role.rawValue, "\(h.language): '\(cell)' matches \(role)")
                }
            }
        }
    }

    @Test func anEventCodeMeansOneThingInEveryLanguage() {
        var seen: [String: ClarityEventKind] = [:]
        for l in ClarityVocabulary.languages {
            for (kind, codes) in l.events {
                for code in codes {
                    if let other = seen[code.lowercased()] { #expect(other == kind, "\(code) is \(other) and \(kind)") }
                    seen[code.lowercased()] = kind
                }
            }
        }
        #expect(ClarityVocabulary.eventKind(of: "EGV") == .egv)
        #expect(ClarityVocabulary.eventKind(of: "Niveles estimados de glucosa") == .egv)
        #expect(ClarityVocabulary.eventKind(of: "食事") == .carbs)
        #expect(ClarityVocabulary.eventKind(of: "Węglowodany") == .unknown)
    }

    /// Without any known word: the pattern cell and the unit cell place the table.
    @Test func unknownLanguageHeaderByStructure() throws {
        let cells = ["Indeks", "Znacznik czasu (RRRR-MM-DDThh:mm:ss)", "Typ zdarzenia", "Podtyp", "Pacjent", "Urządzenie", "Źródło",
                     "Wartość glukozy (mmol/L)", "Insulina", "Węglowodany", "Czas trwania (hh:mm:ss)", "Zmiana (mmol/L/min)",
                     "Czas nadajnika", "Nadajnik"]
        let c = try #require(ClarityColumns(header: cells))
        let places: [Int?] = [c.timestamp, c.eventType, c.glucose, c.duration, c.transmitter]
        #expect(places == [1, 2, 7, 10, 13])
        #expect(c.glucoseUnit == .mmol)
        // Other tables are not Clarity's: a CareLink-like header and a LibreView header.
        if ClarityColumns(header: ["Index", "Date", "Time", "Sensor Glucose (mg/dL)", "Duration (hh:mm:ss)"]) != nil {
            Issue.record("a CareLink-like header read as Clarity's")
        }
        #expect(!ClarityColumns.looksLikeHeader(["Device", "Serial Number", "Device Timestamp", "Record Type",
                                                 "Historic Glucose mg/dL", "Scan Glucose mg/dL"]))
    }

    @Test func lowAndHighInEveryListedLanguage() {
        for (word, value) in [("Low", 40.0), ("low", 40.0), ("Niedrig", 40.0), ("Bas", 40.0), ("High", 400.0), ("Hoch", 400.0)] {
            let got = Array(word.utf8).withUnsafeBytes { ClaritySource.outOfRange($0)?.value }
            #expect(got == value, "\(word)")
        }
        #expect(Array("Lower".utf8).withUnsafeBytes { ClaritySource.outOfRange($0) } == nil)
    }
}
