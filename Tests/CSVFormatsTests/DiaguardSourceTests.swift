import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// The Diaguard backup CSV (Tests/Fixtures/real/diaguard: the app's own backups): detected by its
/// content, every row stored or counted as skipped by type, an entry's time carried to its rows.
@Suite struct DiaguardSourceTests {
    private let seed = "real/diaguard/diaguard-seed-backup.csv"

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? {
        out.input.rowTypes.first { $0.type == name }
    }

    /// Data rows counted independently: every non-blank line but the meta line.
    private func dataRows(_ path: String) throws -> Int64 {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        return Int64(lines.filter { !$0.isEmpty && !$0.hasPrefix("\"meta\"") }.count)
    }

    @Test func theSeedBackupLandsAndItsRowsAddUp() throws {
        let path = try MappedSupport.repositoryFile(seed)
        #expect(diaguardComponent.detect!(try FileSniff.read(path: path)) == 90)
        let out = try MappedSupport.run(diaguardComponent, path: path, timezone: "Europe/Berlin")
        #expect(out.quarantineLines.isEmpty)
        let glucose = out.measurements.filter { $0.metric.text == "blood_glucose" }
        #expect(glucose.count == 14 && glucose.map(\.value).reduce(0, +) == 1553)
        // 2020-01-31 10:57 in Berlin (UTC+1): the insulin row takes its entry's time.
        let insulin = out.events.filter { $0.kind == .insulin }
        #expect(insulin.map(\.insulin) == [1, 6])
        #expect(insulin.first?.start == MappedSupport.utc(2020, 1, 31, 9, 57))
        // The Cola eaten (100 g of a food with 10 g per 100 g) and a 60 g meal; the 0 g meal row is skipped.
        let meals = out.events.filter { $0.kind == .meal }
        #expect(meals.map(\.carbs) == [10, 60])
        #expect(meals.first?.note == "Cola")
        #expect(out.events.filter { $0.kind == .exercise }.map(\.durationSeconds) == [1800])
        // The last row has no line break and fewer cells than the insulin rows: a whole row, not a cut one.
        #expect(glucose.last?.value == 120)

        let rows = try dataRows(path)
        #expect(rows == 37)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == rows)
        // 15 entry rows without a note (skipped: the time of the rows below), the food list, the 0 g meal.
        #expect(type(out, "entry") == RowTypeCount(type: "entry", skipped: 15))
        #expect(type(out, "food") == RowTypeCount(type: "food", skipped: 1))
        #expect(type(out, "meal") == RowTypeCount(type: "meal", stored: 1, skipped: 1))
        #expect(out.input.rowTypes.allSatisfy { $0.known })
        #expect(out.context.warnings.isEmpty)
    }

    /// Tags label their entry (note events `tag`); every category Diaguard writes lands in its metric.
    @Test func tagsAndEveryCategoryLand() throws {
        let text = """
            "meta";"23"
            "tag";"just woke up";
            "entry";"2021-03-01 07:00:00";"before breakfast"
            "entryTag";"just woke up"
            "measurement";"hba1c";"6.4"
            "measurement";"weight";"71.5"
            "measurement";"pressure";"120.0";"80.0"
            "measurement";"oxygen_saturation";"98.0"
            "measurement";"insulin";"2.0";"1.0";"14.0"

            """
        let out = try MappedSupport.run(diaguardComponent, path: try MappedSupport.temporaryFile("all.csv", text),
                                        timezone: "Europe/Berlin")
        #expect(out.quarantineLines.isEmpty)
        let values = Dictionary(out.measurements.map { ($0.metric.text, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(values == ["hba1c": 6.4, "body_mass": 71.5, "blood_pressure_systolic": 120, "blood_pressure_diastolic": 80,
                           "oxygen_saturation": 0.98])
        #expect(out.events.filter { $0.kind == .insulin }.map(\.subtype.text) == ["bolus", "correction", "basal"])
        #expect(out.events.filter { $0.kind == .note }.map(\.note) == ["before breakfast", "just woke up"])
        #expect(type(out, "tag") == RowTypeCount(type: "tag", skipped: 1))
    }

    /// A row type or a category Diaguard does not write, a measurement without an entry above it, a
    /// cut-short insulin row: each quarantined with its row and counted; the unknown ones warned, exit 3.
    @Test func unknownAndBrokenRowsAreQuarantinedAndCounted() throws {
        let text = """
            "meta";"23"
            "measurement";"bloodsugar";"100.0"
            "entry";"2021-03-01 07:00:00";
            "measurement";"ketones";"0.4"
            "reminder";"08:00"
            "measurement";"insulin";"2.0"
            "measurement";"bloodsugar";"96.0"

            """
        let out = try MappedSupport.run(diaguardComponent, path: try MappedSupport.temporaryFile("bad.csv", text),
                                        timezone: "Europe/Berlin")
        #expect(out.measurements.map(\.value) == [96])
        #expect(out.quarantineLines.count == 4)
        #expect(type(out, "ketones") == RowTypeCount(type: "ketones", quarantined: 1, known: false))
        #expect(type(out, "reminder") == RowTypeCount(type: "reminder", quarantined: 1, known: false))
        #expect(type(out, "bloodsugar") == RowTypeCount(type: "bloodsugar", stored: 1, quarantined: 1))
        #expect(type(out, "insulin") == RowTypeCount(type: "insulin", quarantined: 1))
        #expect(out.input.stored + out.input.rejected + out.input.skipped == 6)
        var report = RunReport()
        report.inputs = out.context.inputs
        #expect(report.unknownTypeRows == 2 && report.exitCode == 3)
    }

    /// A file that starts like a backup but is another CSV with a `meta` row is not claimed.
    @Test func detectionNeedsTheMetaVersionRow() throws {
        let other = try MappedSupport.temporaryFile("x.csv", "\"meta\";\"abc\"\n\"entry\";\"2021-03-01 07:00:00\";\n")
        #expect(diaguardComponent.detect!(try FileSniff.read(path: other)) == 0)
    }
}
