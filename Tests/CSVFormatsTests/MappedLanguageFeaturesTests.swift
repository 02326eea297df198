import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// The adapter features consumer-app exports need (docs/adapters.md): header names in several
/// languages (`A|B`), optional columns, several date formats with month names, either decimal
/// mark, several free-text columns, and free text on a reading-only row kept as a note.
@Suite struct MappedLanguageFeaturesTests {
    static let diary = """
        name: diary-x
        description: Test diary in two languages
        detect:
          header_contains: ["Date|Dato", "Time|Tid", "Meal|Måltid", "Note|Notat"]
        decimal_comma: auto
        timestamp:
          date_column: "Date|Dato"
          date_formats: ["%b %d, %Y", "%d-%m-%Y"]
          time_column: "Time|Tid"
          time_formats: ["%I:%M %p", "%H:%M"]
        timezone: UTC
        note_columns: ["Meal|Måltid", "Note|Notat"]
        columns:
          "BG (mg/dL)": { metric: blood_glucose, unit: mg/dL, optional: true }
          "BG (mmol/L)|Blodsukker (mmol/L)": { metric: blood_glucose, unit: mmol/L, optional: true }
          "Carbs|Kulhydrater": { event: meal, skip_zero: true, optional: true }
        """

    @Test func oneAdapterReadsTwoLanguages() throws {
        let c = try MappedSupport.adapter(Self.diary)
        let en = try MappedSupport.temporaryFile("en.csv", """
            "Date","Time","BG (mg/dL)","Carbs","Meal","Note"
            "Aug 7, 2017","9:42 PM","186","40","toast",""
            "Aug 6, 2017","12:05 AM","","","","sensor changed"
            """ + "\n")
        let da = try MappedSupport.temporaryFile("da.csv", """
            "Dato","Tid","Blodsukker (mmol/L)","Kulhydrater","Måltid","Notat"
            "14-02-2021","19:59","5,5","","",""
            "13-02-2021","07:10","6.1","30,5","","godt"
            """ + "\n")
        #expect(c.detect!(try FileSniff.read(path: en)) > 0)
        #expect(c.detect!(try FileSniff.read(path: da)) > 0)

        let a = try MappedSupport.run(c, path: en)
        #expect(a.quarantineLines.isEmpty)
        #expect(a.measurements.map(\.value) == [186])
        #expect(a.measurements[0].start == MappedSupport.utc(2017, 8, 7, 21, 42))
        #expect(a.events.filter { $0.kind == .meal }.map(\.carbs) == [40])
        #expect(a.events.first { $0.kind == .meal }?.note == "toast")
        // 12:05 AM is five past midnight.
        #expect(a.events.first { $0.kind == .note }?.start == MappedSupport.utc(2017, 8, 6, 0, 5))

        let b = try MappedSupport.run(c, path: da)
        #expect(b.quarantineLines.isEmpty)
        // 5,5 and 6.1 mmol/L (either mark) → 99 and 110 mg/dL.
        #expect(b.measurements.map(\.value) == [99, 110])
        #expect(b.events.map(\.carbs) == [30.5])
        #expect(b.events[0].note == "godt")
    }

    /// Free text on a row whose only record is a reading was dropped before: measurements carry no
    /// note, and the note event was made only for rows with nothing else.
    @Test func noteOnAReadingOnlyRowBecomesANoteEvent() throws {
        let c = try MappedSupport.adapter(Self.diary)
        let path = try MappedSupport.temporaryFile("n.csv", "Date,Time,BG (mg/dL),Carbs,Meal,Note\n\"Aug 7, 2017\",9:42 PM,120,,,felt shaky\n")
        let out = try MappedSupport.run(c, path: path)
        #expect(out.measurements.map(\.value) == [120])
        #expect(out.events.map(\.kind) == [.note])
        #expect(out.events.first?.note == "felt shaky")
    }

    @Test func missingOptionalColumnsAreSkippedAndRequiredOnesRefused() throws {
        let c = try MappedSupport.adapter(Self.diary)
        // No mmol/L, no carbs column: the file still reads.
        let path = try MappedSupport.temporaryFile("o.csv", "Date,Time,BG (mg/dL),Meal,Note\n\"Aug 7, 2017\",9:42 PM,120,,\n")
        let out = try MappedSupport.run(c, path: path)
        #expect(out.measurements.map(\.value) == [120])
        let strict = try MappedSupport.adapter(Self.diary.replacingOccurrences(of: "unit: mg/dL, optional: true", with: "unit: mg/dL"))
        let other = try MappedSupport.temporaryFile("p.csv", "Dato,Tid,Måltid,Notat\n14-02-2021,19:59,,x\n")
        #expect(strict.detect!(try FileSniff.read(path: other)) == 0)
        #expect(throws: InputError.self) { try MappedSupport.run(strict, path: other) }
    }

    @Test func monthNamesInSeveralLanguages() throws {
        var out: [UInt8] = []
        func rewrite(_ s: String) -> String? {
            var t = s
            return t.withUTF8 { MonthNames.rewrite(UnsafeRawBufferPointer($0), into: &out) } ? String(decoding: out, as: UTF8.self) : nil
        }
        #expect(rewrite("Aug 7, 2017 9:42:20 AM") == "8 7, 2017 9:42:20 AM")
        #expect(rewrite("7. Mär 2021") == "7. 3 2021")
        #expect(rewrite("12 déc. 2020") == "12 12 2020")
        #expect(rewrite("3 juil. 2020") == "3 7 2020")
        #expect(rewrite("3 juin 2020") == "3 6 2020")
        #expect(rewrite("September 30, 2019") == "9 30, 2019")
        #expect(rewrite("30.09.2019 AM") == nil)

        let p = try TimestampPattern("%d. %m %Y")
        var reader = MappedTimeReader(.single(.index(0), .init(list: [p], texts: ["%d. %b %Y"], monthNames: true)))
        var cell = "7. Mär 2021"
        let t = cell.withUTF8 { reader.parse(date: UnsafeRawBufferPointer($0), time: nil) }
        #expect(t?.seconds == MappedSupport.utc(2021, 3, 7, 0, 0))
    }

    @Test func specMistakesInTheNewKeysAreLocated() throws {
        let empty = Self.diary.replacingOccurrences(of: "\"Carbs|Kulhydrater\"", with: "\"Carbs|\"")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(empty) }
        let mark = Self.diary.replacingOccurrences(of: "decimal_comma: auto", with: "decimal_comma: maybe")
        #expect(throws: (any Error).self) { try MappedSupport.adapter(mark) }
        let notListed = Self.diary.replacingOccurrences(of: "note_columns: [\"Meal|Måltid\", ", with: "note_columns: [\"Meel\", ")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(notListed) }
    }
}
