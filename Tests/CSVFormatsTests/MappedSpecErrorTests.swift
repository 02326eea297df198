import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// Mistakes in adapter files are reported as file:line:column with the nearest valid name.
@Suite struct MappedSpecErrorTests {
    static let lines = [
        "name: sim",                                                      // 1
        "description: test",                                              // 2
        "detect:",                                                        // 3
        "  header_contains: [timestamp, patient, cgm_mgdl]",              // 4
        "timestamp: { column: timestamp, format: \"%Y-%m-%dT%H:%M:%S\" }", // 5
        "subject_column: patient",                                        // 6
        "columns:",                                                       // 7
        "  cgm_mgdl: { metric: glucose, unit: mg/dL }",                   // 8
    ]

    /// The base spec with line `n` (1-based) replaced, or lines appended.
    static func spec(replacing n: Int? = nil, with line: String = "", appending extra: [String] = []) -> String {
        var l = lines
        if let n { l[n - 1] = line }
        return (l + extra).joined(separator: "\n") + "\n"
    }

    static func error(_ yaml: String) -> ConfigError? {
        do {
            _ = try MappedSupport.adapter(yaml, file: "adapters/x.yaml")
            return nil
        } catch let e as ConfigError {
            return e
        } catch {
            Issue.record("expected one ConfigError, got \(error)")
            return nil
        }
    }

    /// 1-based column of `needle` in `line`.
    static func column(of needle: String, in line: String) -> Int {
        line.distance(from: line.startIndex, to: line.range(of: needle)!.lowerBound) + 1
    }

    @Test func baseSpecIsValid() throws {
        _ = try MappedSupport.adapter(Self.spec())
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() throws {
        let e = try #require(Self.error(Self.spec(replacing: 6, with: "subjcet_column: patient")))
        #expect(e.file == "adapters/x.yaml" && e.line == 6 && e.column == 1)
        #expect(e.message.contains("unknown option 'subjcet_column'"))
        #expect(e.suggestion == "subject_column")
        #expect(e.description.hasPrefix("adapters/x.yaml:6:1: error:"))
    }

    /// An each_row event may keep a cell (`from:`, with its `unit_column`) as metadata; a unit
    /// column without the value it qualifies is refused.
    @Test func anEachRowEntryKeepsAUnitOnlyWithItsValue() throws {
        _ = try MappedSupport.adapter(Self.spec(appending: ["  mark: { each_row: true, from: cgm_mgdl, unit_column: patient, event: note }"]))
        let e = try #require(Self.error(Self.spec(appending: ["  mark: { each_row: true, unit_column: patient, event: note }"])))
        #expect(e.line == 9 && e.message.contains("keeps a unit with its from: value"))
    }

    @Test func misspeltRequiredKeyIsAnUnknownKeyNotAMissingOne() throws {
        let e = try #require(Self.error(Self.spec(replacing: 5, with: "timestmp: { column: timestamp, format: \"%Y\" }")))
        #expect(e.line == 5 && e.column == 1)
        #expect(e.suggestion == "timestamp")
    }

    @Test func unknownNestedKey() throws {
        let line = "  cgm_mgdl: { metric: glucose, unti: mg/dL }"
        let e = try #require(Self.error(Self.spec(replacing: 8, with: line)))
        #expect(e.line == 8 && e.column == 32 && e.column == Self.column(of: "unti", in: line))
        #expect(e.suggestion == "unit")
    }

    @Test func badTimestampToken() throws {
        let line = "timestamp: { column: timestamp, format: \"%Y-%m-%dT%H:%q\" }"
        let e = try #require(Self.error(Self.spec(replacing: 5, with: line)))
        #expect(e.line == 5 && e.column == 41 && e.column == Self.column(of: "\"%Y", in: line))
        #expect(e.message.contains("unknown token %q"))
        #expect(e.message.contains("%Y %y %m %d"))
    }

    @Test func badTimeFormatTokenPointsAtTimeFormat() throws {
        let line = "timestamp: { date_column: timestamp, date_format: \"%Y-%m-%d\", time_column: patient, time_format: \"%H:%x\" }"
        let e = try #require(Self.error(Self.spec(replacing: 5, with: line)))
        #expect(e.line == 5 && e.column == Self.column(of: "\"%H:%x", in: line))
        #expect(e.message.hasPrefix("time_format '%H:%x': unknown token %x"))
    }

    @Test func unknownColumnReference() throws {
        let e = try #require(Self.error(Self.spec(replacing: 6, with: "subject_column: patiant")))
        #expect(e.line == 6 && e.column == 17)
        #expect(e.message.contains("unknown column 'patiant'"))
        #expect(e.suggestion == "patient")

        let ts = try #require(Self.error(Self.spec(replacing: 5, with: "timestamp: { column: timestmp, format: \"%Y\" }")))
        #expect(ts.line == 5 && ts.column == 22)
        #expect(ts.suggestion == "timestamp")
    }

    @Test func unknownEventKindAndField() throws {
        let kind = try #require(Self.error(Self.spec(appending: ["  carbs: { event: mael }"])))
        #expect(kind.line == 9 && kind.column == 19)
        #expect(kind.suggestion == "meal")
        let field = try #require(Self.error(Self.spec(appending: ["  carbs: { event: meal, field: crabs }"])))
        #expect(field.line == 9 && field.suggestion == "carbs")
        let note = try #require(Self.error(Self.spec(appending: ["  n: { event: note }"])))
        #expect(note.message.contains("needs field"))
    }

    @Test func headerModeAndHeaderlessReferences() throws {
        let mode = try #require(Self.error(Self.spec(appending: ["header: atuo"])))
        #expect(mode.line == 9 && mode.column == 9 && mode.suggestion == "auto")

        let headerless = """
            name: h
            description: test
            detect: { field_count: 3 }
            header: none
            timestamp: { column: 1, format: epoch }
            columns:
              sgv: { metric: glucose, unit: mg/dL }
              4: { metric: glucose, unit: mg/dL }
            """
        do {
            _ = try MappedSupport.adapter(headerless)
            Issue.record("expected errors")
        } catch let e as ConfigErrors {
            #expect(e.errors.map(\.line) == [7, 8])
            #expect(e.errors[0].message.contains("1-based position, not 'sgv'"))
            #expect(e.errors[1].message.contains("beyond detect.field_count (3)"))
        }
    }

    @Test func glucoseNeedsAGlucoseUnit() throws {
        let e = try #require(Self.error(Self.spec(replacing: 8, with: "  cgm_mgdl: { metric: glucose, unit: mg }")))
        #expect(e.line == 8 && e.column == 38)
        #expect(e.message.contains("mg/dL or mmol/L"))
    }

    @Test func wrongValueTypeIsLocated() throws {
        let e = try #require(Self.error(Self.spec(appending: ["decimal_comma: maybe"])))
        #expect(e.line == 9 && e.column == 16)
        #expect(e.message.contains("true or false"))
    }

    @Test func severalMistakesAreReportedTogether() throws {
        let yaml = Self.spec(replacing: 6, with: "subject_column: patiant", appending: ["timezone: Mars/Olympus"])
        do {
            _ = try MappedSupport.adapter(yaml)
            Issue.record("expected errors")
        } catch let e as ConfigErrors {
            #expect(e.errors.map(\.line) == [9, 6])
        }
    }

    @Test func loadNamesTheBrokenFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.spec().write(to: dir.appendingPathComponent("a-good.yaml"), atomically: true, encoding: .utf8)
        try Self.spec(replacing: 1, with: "name: other", appending: ["  carbs: { evnet: meal }"])
            .write(to: dir.appendingPathComponent("b-bad.yml"), atomically: true, encoding: .utf8)
        try "not: an adapter".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        do {
            _ = try MappedCSVAdapters.load(directory: dir.path)
            Issue.record("expected a ConfigError")
        } catch let e as ConfigError {
            #expect(e.file == dir.appendingPathComponent("b-bad.yml").path)
            #expect(e.line == 9 && e.column == 12)
            #expect(e.suggestion == "event")
            #expect(e.description.hasPrefix(e.file + ":9:12: error: unknown option 'evnet'"))
        }
        // Without the broken file the folder loads.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("b-bad.yml"))
        #expect(try MappedCSVAdapters.load(directory: dir.path).map(\.name) == ["sim"])
    }

    @Test func yamlSyntaxErrorsAreLocated() throws {
        let e = try #require(Self.error("name: x\ncolumns: [unclosed\n"))
        #expect(e.line >= 2)
    }
}
