import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// The real Guardian Connect export (samples/medtronic-carelink): `;`, decimal comma, CRLF, Pump and
/// Sensor sections each with a marker line and the header again, newest rows first.
@Suite struct CareLinkSampleTests {
    let path = SourceHarness.sample("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")

    @Test func countsMatchTheFile() throws {
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(path)))
        // 1,909 lines, 2 of them blank (libcsv reports no row for them): 3 metadata, 2 markers, 2 headers,
        // 400 Pump rows (80 event markers, 280 alarms, 40 BG readings) and 1,500 Sensor rows (1,499
        // readings and one empty row).
        #expect(r.input.rowsRead == 1907)
        #expect(r.input.measurements == 1539)   // 1,499 sensor glucose + 40 BG readings
        #expect(r.input.events == 348)          // 47 insulin + 21 meal markers (12 verbatim repeats dropped) + 280 alarms
        #expect(r.input.rejected == 0 && r.quarantined.isEmpty)
        #expect(r.input.format == "medtronic-carelink")

        let sg = r.measurements.filter { $0.metric == Metrics.glucose }
        #expect(sg.count == 1499 && sg.reduce(0) { $0 + $1.value } == 175_680)
        #expect(sg.allSatisfy { $0.flags.isEmpty && $0.unit == CanonicalUnits.glucose })
        let bg = r.measurements.filter { $0.metric == Symbol("blood_glucose") }
        #expect(bg.count == 40 && bg.reduce(0) { $0 + $1.value } == 4606)
        #expect(bg.allSatisfy { $0.flags == .userEntered })

        let insulin = r.events.filter { $0.kind == .insulin }
        #expect(insulin.count == 47 && insulin.reduce(0) { $0 + ($1.insulin ?? 0) } == 357)
        let meals = r.events.filter { $0.kind == .meal }
        #expect(meals.count == 21 && meals.reduce(0) { $0 + ($1.carbs ?? 0) } == 894)
        let alerts = r.events.filter { $0.kind == .alert }
        #expect(alerts.count == 280)
        #expect(alerts.filter { $0.subtype == Symbol("LOW PREDICTED") }.count == 65)
        #expect(alerts.filter { $0.subtype == Symbol("Other Alarm Code: 1003") }.count == 29)
        #expect(Set(r.measurements.map(\.source) + r.events.map(\.source)) == [Symbol("Guardian Connect")])
    }

    @Test func spotChecks() throws {
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(path)))
        // Line 411, the first Sensor reading (line 410 is an empty row): `2747,00000;2021/07/25;00:32:50;…;55` (BST).
        let first = try #require(r.measurements.first { $0.metric == Metrics.glucose })
        #expect(first.provenance.line == 411 && first.value == 55)
        #expect(first.start == SourceHarness.utc(2021, 7, 24, 23, 32, 50) && first.start == 1_627_169_570)
        #expect(first.utcOffset == 3600)
        // Lines 8 and 9 both say `Insulin: 27,00` at 09:35:28: one insulin event.
        let dose = try #require(r.events.first)
        #expect(dose.provenance.line == 8 && dose.kind == .insulin && dose.insulin == 27 && dose.start == 1_627_202_128)
        #expect(!r.events.contains { $0.provenance.line == 9 })
        // Line 12: `CHANGE SENSOR2` alarm.
        let alarm = try #require(r.events.first { $0.provenance.line == 12 })
        #expect(alarm.kind == .alert && alarm.subtype == Symbol("CHANGE SENSOR2"))
        // Line 42: `Meal: 60,00grams`.
        let meal = try #require(r.events.first { $0.provenance.line == 42 })
        #expect(meal.kind == .meal && meal.carbs == 60 && meal.note == nil)
        // Line 15: BG Reading 70.
        let bg = try #require(r.measurements.first { $0.provenance.line == 15 })
        #expect(bg.metric == Symbol("blood_glucose") && bg.value == 70)
    }

    @Test func utcZone() throws {
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(path, zone: "UTC")))
        let first = try #require(r.measurements.first { $0.metric == Metrics.glucose })
        #expect(first.start == 1_627_173_170 && first.utcOffset == 0)
    }
}
