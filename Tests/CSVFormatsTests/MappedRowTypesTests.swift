import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// One row per logged item with a type column (Nutrisense `class`, a diary's `Event`): entries
/// with `when:` read only rows of their types, several entries read one column (`from:`),
/// `each_row` events carry no amount, unlisted types are quarantined (skip_types are skipped), and an empty timestamp cell
/// falls back to another column.
@Suite struct MappedRowTypesTests {
    static let log = """
        name: log-x
        description: Test log with a type column
        detect:
          header_contains: [kind, value, at, text, edited]
        timestamp: { column: at, fallback_column: edited, format: "%Y-%m-%d %H:%M" }
        timezone: UTC
        row_type_column: kind
        note_columns: [text]
        columns:
          cgm: { from: value, when: [Sensor], metric: glucose, unit: mg/dL }
          meter: { from: value, when: [Meter, Strip], metric: blood_glucose, unit: mg/dL }
          food: { each_row: true, when: [Meal], event: meal }
          memo: { each_row: true, when: [Note], event: note }
        """

    static let file = """
        kind,value,at,text,edited
        Sensor,120,2024-03-05 07:00,,
        Meter,131,2024-03-05 07:02,,
        Pressure,120/80,2024-03-05 07:03,,
        Meal,,2024-03-05 07:30,porridge,
        Note,,,slept badly,2024-03-05 08:00
        STRIP,99,2024-03-05 09:00,,

        """

    @Test func entriesReadOnlyTheirRowTypes() throws {
        let c = try MappedSupport.adapter(Self.log)
        let path = try MappedSupport.temporaryFile("log.csv", Self.file)
        #expect(c.detect!(try FileSniff.read(path: path)) > 0)
        let out = try MappedSupport.run(c, path: path)
        // "120/80" of the unlisted Pressure type is quarantined as an unknown type, not dropped.
        #expect(out.quarantined.map { $0["line"] as? Int } == [4])
        #expect(out.measurements.filter { $0.metric.text == "glucose" }.map(\.value) == [120])
        #expect(out.measurements.filter { $0.metric.text == "blood_glucose" }.map(\.value) == [131, 99])
        let meal = out.events.first { $0.kind == .meal }
        #expect(meal?.carbs == nil && meal?.note == "porridge")
        #expect(meal?.start == MappedSupport.utc(2024, 3, 5, 7, 30))
        // The note has no `at`: its `edited` time is used.
        let note = out.events.first { $0.kind == .note }
        #expect(note?.note == "slept badly" && note?.start == MappedSupport.utc(2024, 3, 5, 8, 0))
        #expect(out.events.count == 2)
    }

    @Test func aBadValueOfAListedTypeIsStillRejected() throws {
        let c = try MappedSupport.adapter(Self.log)
        let path = try MappedSupport.temporaryFile("bad.csv", "kind,value,at,text,edited\nSensor,120,2024-03-05 07:00,,\nSensor,high,2024-03-05 07:05,,\n")
        let out = try MappedSupport.run(c, path: path)
        #expect(out.measurements.count == 1)
        #expect(out.quarantineLines.count == 1 && out.quarantineLines[0].contains("'high' is not a number"))
    }

    @Test func rowTypeMistakesAreLocated() throws {
        let noTypeColumn = Self.log.replacingOccurrences(of: "row_type_column: kind\n", with: "")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(noTypeColumn) }
        let eachRowWithField = Self.log.replacingOccurrences(of: "{ each_row: true, when: [Meal], event: meal }",
                                                             with: "{ each_row: true, when: [Meal], event: meal, field: carbs }")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(eachRowWithField) }
        let emptyWhen = Self.log.replacingOccurrences(of: "when: [Sensor]", with: "when: []")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(emptyWhen) }
        // A type both read and skipped; skip_types without a type column; a unit column on a non-glucose value.
        let readAndSkipped = Self.log.replacingOccurrences(of: "note_columns: [text]", with: "note_columns: [text]\nskip_types: [Meal]")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(readAndSkipped) }
        #expect(try MappedSupport.adapter(Self.log.replacingOccurrences(of: "note_columns: [text]", with: "note_columns: [text]\nskip_types: [Pressure]")).name == "log-x")
        let skipWithoutColumn = noTypeColumn.replacingOccurrences(of: "note_columns: [text]", with: "note_columns: [text]\nskip_types: [Pressure]")
        #expect(throws: (any Error).self) { try MappedSupport.adapter(skipWithoutColumn) }
        do { _ = try MappedSupport.adapter(skipWithoutColumn) } catch {
            #expect("\(error)".contains("skip_types names row types: name the column that holds them with row_type_column"))
        }
        let unitOnSteps = Self.log.replacingOccurrences(of: "memo: { each_row: true, when: [Note], event: note }",
                                                        with: "memo: { from: value, when: [Note], metric: step_count, unit: count, unit_column: text }")
        #expect(throws: ConfigError.self) { try MappedSupport.adapter(unitOnSteps) }
    }
}
