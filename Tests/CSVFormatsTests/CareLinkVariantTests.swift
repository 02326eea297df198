import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// CareLink layouts beyond the Guardian Connect sample: a pump export in mmol/L with `Alert`, bolus
/// pairs, basal rates and calibrations; sections whose headers differ; the older comma-separated form.
@Suite struct CareLinkVariantTests {
    typealias F = CareLinkFixture

    func pumpFile() -> F {
        var f = F()
        f.metadata(device: "MiniMed 720G MMT-1780")
        f.section("MiniMed 720G MMT-1780", "Pump", header: F.pumpMmolHeader)
        f.row("25.07.2021", "12:10:00", ["Basal Rate (U/h)": "0,825"])                                  // line 8
        f.row("25.07.2021", "11:58:10", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "3,50",
                                         "Bolus Volume Delivered (U)": "3,50", "Bolus Number": "42"])   // 9: delivered
        f.row("25.07.2021", "11:58:00", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "3,50",
                                         "Bolus Number": "42"])                                          // 10: programmed
        f.row("25.07.2021", "11:58:00", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "3,50",
                                         "Bolus Volume Delivered (U)": "3,50", "Bolus Number": "42"])   // 11: repeat
        f.row("25.07.2021", "11:57:00", ["BWZ Carb Input (grams)": "45", "BWZ Estimate (U)": "3,50"])   // 12
        f.row("25.07.2021", "10:00:00", ["Bolus Type": "Square", "Bolus Volume Delivered (U)": "2,00",
                                         "Bolus Duration (h:mm:ss)": "0:30:00", "Bolus Number": "41"])  // 13
        f.row("25.07.2021", "09:00:00", ["BG Reading (mmol/L)": "6,1", "Sensor Calibration BG (mmol/L)": "6,1"]) // 14
        f.row("25.07.2021", "08:00:00", ["BG Reading (mmol/L)": "7,0"])                                 // 15
        f.row("25.07.2021", "07:00:00", ["Alert": "HIGH SG"])                                           // 16
        f.row("25.07.2021", "06:00:00", ["Suspend": "USER_SUSPEND"])                                    // 17
        f.row("25.07.2021", "05:00:00", ["Rewind": "Rewind"])                                           // 18
        f.row("25.07.2021", "04:00:00", ["Event Marker": "Exercise: 30"])                               // 19
        f.row("25.07.2021", "03:00:00", ["BWZ Estimate (U)": "1,00"])                                   // 20: nothing mapped
        f.row("32.07.2021", "02:00:00", ["Basal Rate (U/h)": "0,8"])                                    // 21: bad date
        // The Sensor section names its columns again, in the Guardian layout (other positions, mg/dL).
        f.section("MiniMed 720G MMT-1780", "Sensor", header: F.guardianHeader)
        f.row("2021/07/25", "12:05:00", ["Sensor Glucose (mg/dL)": "99", "ISIG Value": "23,45"])       // 24
        f.row("2021/07/25", "12:00:00", ["Sensor Glucose (mg/dL)": "abc"])                              // 25: garbage
        f.row("2021/07/25", "11:55:00", ["Sensor Glucose (mg/dL)": "101"])                              // 26
        return f
    }

    @Test func pumpExportInMmol() throws {
        let f = pumpFile()
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(try SourceHarness.file(f.text), zone: "UTC")))
        #expect(r.input.rejected == 2)
        #expect(r.quarantined.map { $0["line"] as? Int } == [21, 25])
        #expect(r.quarantined.first?["reason"] as? String == "unreadable date/time '32.07.2021 02:00:00'")
        #expect(r.quarantined.last?["reason"] as? String == "Sensor Glucose 'abc' is not a number")
        let source = Symbol("MiniMed 720G MMT-1780")
        #expect(Set(r.measurements.map(\.source) + r.events.map(\.source)) == [source])

        let m = Dictionary(grouping: r.measurements, by: { $0.provenance.line })
        #expect(m[8]?.first?.metric == Symbol("basal_rate") && m[8]?.first?.value == 0.825 && m[8]?.first?.unit == Symbol("U/h"))
        #expect(m[8]?.first?.start == SourceHarness.utc(2021, 7, 25, 12, 10))
        // A meter reading used to calibrate is kept once, as the calibration: 6.1 mmol/L → 110 mg/dL.
        #expect(m[14]?.count == 1)
        #expect(m[14]?.first?.value == 110 && m[14]?.first?.flags == [.userEntered, .calibration, .convertedFromMmol])
        #expect(m[15]?.first?.value == 126 && m[15]?.first?.flags == [.userEntered, .convertedFromMmol])
        #expect(m[24]?.map(\.metric) == [Metrics.glucose, Metrics.sensorSignal])
        #expect(m[24]?.map(\.value) == [99, 23.45] && m[24]?.last?.unit == Symbol("nA"))
        #expect(m[24]?.first?.flags.isEmpty == true)
        #expect(m[26]?.first?.value == 101)
        #expect(r.measurements.count == 6)

        let e = Dictionary(grouping: r.events, by: { $0.provenance.line })
        #expect(r.events.count == 7)
        // The bolus pair (number 42) gives one delivered dose; the programmed row and the repeat give nothing.
        #expect(e[9]?.first?.insulin == 3.5 && e[9]?.first?.subtype == InsulinKinds.bolus && e[9]?.first?.note == "Normal")
        #expect(e[10] == nil && e[11] == nil)
        #expect(e[12]?.first?.kind == .meal && e[12]?.first?.carbs == 45)
        #expect(e[13]?.first?.insulin == 2 && e[13]?.first?.durationSeconds == 1800)
        #expect(e[16]?.first?.kind == .alert && e[16]?.first?.subtype == Symbol("HIGH SG"))
        #expect(e[17]?.first?.kind == .device && e[17]?.first?.subtype == Symbol("USER_SUSPEND"))
        #expect(e[18]?.first?.kind == .device && e[18]?.first?.subtype == Symbol("rewind"))
        #expect(e[19]?.first?.kind == .note && e[19]?.first?.subtype == Symbol("Exercise") && e[19]?.first?.note == "Exercise: 30")
        #expect(e[20] == nil)
    }

    @Test func olderCommaSeparatedExport() throws {
        var f = F()
        f.delimiter = ","
        f.useHeader(F.guardianHeader)
        f.row("07/25/21", "12:05:00", ["Sensor Glucose (mg/dL)": "120", "Basal Rate (U/h)": "0.825"])
        f.row("07/25/21", "12:00:00", ["Event Marker": "\"Insulin: 4.5\""])
        f.row("07/25/21", "11:55:00", ["Event Marker": "Carbs: 30"])
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(try SourceHarness.file(f.text), zone: "UTC")))
        #expect(r.input.rejected == 0)
        #expect(r.measurements.map(\.value) == [120, 0.825])
        #expect(r.measurements[0].start == SourceHarness.utc(2021, 7, 25, 12, 5))
        #expect(r.measurements[0].source == Symbol("Medtronic CareLink"))
        #expect(r.events.map(\.kind) == [.insulin, .meal])
        #expect(r.events[0].insulin == 4.5 && r.events[1].carbs == 30)
    }

    @Test func markerWithoutAmountKeepsItsText() throws {
        var f = F()
        f.useHeader(F.guardianHeader)
        f.row("2021/07/25", "12:00:00", ["Event Marker": "Insulin: ?"])
        let r = try SourceRunner.run(CareLinkSource(options: SourceHarness.options(try SourceHarness.file(f.text), zone: "UTC")))
        #expect(r.events.first?.kind == .insulin && r.events.first?.insulin == nil && r.events.first?.note == "Insulin: ?")
    }

    @Test func notACareLinkFile() throws {
        let path = SourceHarness.sample("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")
        let error = try #require(throws: InputError.self) { try SourceRunner.run(CareLinkSource(options: SourceHarness.options(path))) }
        #expect(error.reason.contains("not a CareLink export"))
    }

    @Test func missingZoneRefusesTheFile() throws {
        let path = SourceHarness.sample("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")
        let error = try #require(throws: InputError.self) {
            try SourceRunner.run(CareLinkSource(options: SourceHarness.options(path, zone: nil)))
        }
        #expect(error.reason.contains("--timezone") && error.line == 8)
    }
}
