import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// The one table of CareLink header words: a header is read by its words in any language it lists,
/// with the glucose unit taken from the header, and files are found by content.
@Suite struct CareLinkHeaderWordsTests {
    func score(_ text: String) -> Int {
        CareLinkColumns.detectScore(FileSniff(path: "x.csv", prefix: Array(text.utf8)))
    }

    @Test func germanHeaderMapsEveryRole() throws {
        let c = try #require(CareLinkColumns(header: ["Index", "Datum", "Zeit", "BZ-Messwert (mg/dl)", "Basalrate (IE/h)",
                                                      "Bolustyp", "Gewähltes Bolusvolumen (IE)", "Abgegebene Bolusmenge (IE)",
                                                      "BolusExpert: KH-Eingabe (Gramm)", "Sensorglukose (mmol/l)", "ISIG-Wert",
                                                      "Unterbrechen", "Rücklauf", "Roh-Typ", "Roh-Werte"]))
        #expect((c.date, c.time, c.bgReading?.index, c.basalRate, c.bolusType) == (1, 2, 3, 4, 5))
        #expect((c.bolusSelected, c.bolusDelivered, c.carbInput, c.isig, c.suspend, c.rewind) == (6, 7, 8, 10, 11, 12))
        #expect(c.sensorGlucose?.index == 9 && c.sensorGlucose?.unit == .mmol && c.bgReading?.unit == .mgdl)
        #expect((c.rawType, c.rawValues) == (13, 14))
    }

    @Test func danishAndDutchHeadersWithoutIndex() throws {
        let da = try #require(CareLinkColumns(header: ["Dato", "Klokkeslæt", "Sensorglukose (mmol/l)"]))
        #expect((da.date, da.time, da.sensorGlucose?.index) == (0, 1, 2))
        let nl = try #require(CareLinkColumns(header: ["Index", "Datum", "Tijd", "BG-meetwaarde (mmol/l)"]))
        #expect(nl.bgReading?.unit == .mmol)
    }

    /// A date and a time alone, or words the table does not know, are no CareLink header.
    @Test func headersWithNothingToReadAreRefused() {
        #expect(CareLinkColumns(header: ["Index", "Date", "Time", "Comment"]) == nil)
        #expect(CareLinkColumns(header: ["Date", "Time", "Tags", "Blood Sugar Measurement (mg/dL)"]) == nil)
        #expect(CareLinkColumns(header: ["Index", "Foo", "Bar", "Sensor Glucose (mg/dL)"]) == nil)
    }

    @Test func detectionByContent() {
        #expect(score("Medtronic Diabetes CareLink Personal Datenexport-Datei (v1.0.1) \nPATIENTENINFORMATIONEN\n") == 90)
        #expect(score("Medtronic Diabetes CareLink Personal Data Export File (v1.0.1) \nPATIENT INFO\n") == 90)
        #expect(score("Index;Datum;Zeit;BZ-Messwert (mg/dl);Sensorglukose (mg/dl)\n1;13.01.16;00:05:00;;112\n") == 85)
        #expect(score("Datum;Zeit;BZ-Messwert (mg/dl);Abgegebene Bolusmenge (IE)\n13.01.16;07:30:00;131;\n") == 75)
        // mySugr's `Date,Time,…` is someone else's.
        #expect(score("Date,Time,Tags,Blood Sugar Measurement (mg/dL),Insulin Injection Units (Pump)\n") == 0)
    }

    /// By structure: a 39-column header of unknown words counts only when a row of that layout follows.
    @Test func structureNeedsARowOfTheLayout() {
        let header = (1...39).map { "Spalte \($0)" }.joined(separator: ",")
        var row = Array(repeating: "", count: 39)
        (row[0], row[1], row[2]) = ("7", "9/26/09", "11:10:30")
        #expect(score(header + "\n" + row.joined(separator: ",") + "\n") == 70)
        (row[1], row[2]) = ("red", "blue")
        #expect(score(header + "\n" + row.joined(separator: ",") + "\n") == 0)
        #expect(score(Array(repeating: "word", count: 20).joined(separator: ",") + "\n") == 0)
    }

    /// The separator is the data header's, not the preamble's first line (which has none).
    @Test func separatorFromTheHeaderLine() {
        let lines: [Substring] = ["Medtronic Diabetes CareLink Personal Datenexport-Datei (v1.0.1) ", "Name;Muster, Max",
                                  "Index;Datum;Zeit;BZ-Messwert (mg/dl)"]
        #expect(CareLinkSource.delimiter(lines) == UInt8(ascii: ";"))
        #expect(CareLinkSource.delimiter(["Data Export File", "Index,Date,Time,BG Reading (mg/dL)"]) == UInt8(ascii: ","))
    }
}
