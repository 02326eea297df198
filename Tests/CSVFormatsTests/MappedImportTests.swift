import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// The bundled adapters on the real files, with counts established independently (awk/python).
@Suite struct MappedImportTests {
    @Test func simglucoseImportsEveryRow() throws {
        let path = try MappedSupport.repositoryFile("reference/simglucose/all.csv")
        let out = try MappedSupport.run(try MappedSupport.bundled("simglucose"), path: path)

        #expect(out.measurements.count == 40_320)
        let meals = out.events.filter { $0.kind == .meal }, insulin = out.events.filter { $0.kind == .insulin }
        #expect(meals.count == 528)        // rows with carbs_g != 0
        #expect(insulin.count == 40_320)   // every row delivers basal insulin
        #expect(out.events.count == 40_848)
        #expect(out.quarantineLines.isEmpty)
        #expect(out.context.inputs.first?.rowsRead == 40_321)
        #expect(out.context.inputs.first?.measurements == 40_320)
        #expect(out.context.inputs.first?.rejected == 0)

        #expect(Set(out.measurements.map(\.subject.text)).count == 10)
        #expect(out.measurements.allSatisfy { $0.metric == Metrics.glucose && $0.unit.text == "mg/dL" && $0.source.text == "simglucose" })
        #expect(out.measurements.filter { $0.subject.text == "child#003" && $0.value == 39 }.count == 3_465)
        #expect(abs(meals.compactMap(\.carbs).reduce(0, +) - 27_170) < 1e-6)
        #expect(abs(insulin.compactMap(\.insulin).reduce(0, +) - 5_262.76004) < 1e-4)

        // 2024-01-01T00:00:00,adolescent#001,135.22,0.0,0.06967 (line 2)
        let first = out.measurements[0]
        #expect(first.subject.text == "adolescent#001")
        #expect(first.start == MappedSupport.utc(2024, 1, 1))
        #expect(first.utcOffset == 0)
        #expect(first.value == 135.22)
        #expect(first.provenance.line == 2)
        // 2024-01-01T06:15:00,adolescent#001,155.51,52.0,0.06967: a meal over the 5-minute step
        let meal = meals[0]
        #expect(meal.subject.text == "adolescent#001")
        #expect(meal.start == MappedSupport.utc(2024, 1, 1, 6, 15))
        #expect(meal.end == meal.start + 300)
        #expect(meal.carbs == 52)
        #expect(insulin[0].insulin == 0.06967)
        #expect(insulin[0].subtype == .empty)
    }

    @Test func runZoneOverridesTheAdapterDefault() throws {
        let path = try MappedSupport.repositoryFile("reference/simglucose/all.csv")
        let c = try MappedSupport.bundled("simglucose")
        let ny = try MappedSupport.run(c, path: path, timezone: "America/New_York")
        #expect(ny.measurements[0].start == MappedSupport.utc(2024, 1, 1, 5))
        #expect(ny.measurements[0].utcOffset == -18_000)
        let stage = try MappedSupport.run(c, path: path, options: "timezone: \"+02:00\"\n", timezone: "America/New_York")
        #expect(stage.measurements[0].start == MappedSupport.utc(2023, 12, 31, 22))
    }

    @Test func nightscoutEntriesCSV() throws {
        let path = MappedSupport.packageRoot.appendingPathComponent("samples/nightscout/cgm_format_nightscout_entries.csv").path
        let out = try MappedSupport.run(try MappedSupport.bundled("nightscout-entries-csv"), path: path)

        #expect(out.measurements.count == 994)      // 1,000 rows, 6 with sgv < 40
        #expect(out.events.isEmpty)
        #expect(out.quarantineLines.count == 6)
        #expect(out.context.quarantined == 6)
        #expect(out.context.inputs.first?.rowsRead == 1_000)
        #expect(out.quarantineLines.allSatisfy { $0.contains("is below the valid minimum 40") })
        #expect(out.quarantineLines[0].contains("\"line\":246") && out.quarantineLines[0].contains("34"))
        #expect(out.measurements.map(\.value).reduce(0, +) == 167_216)

        // "2026-04-05T20:30:29.000Z",1775421029000,162,"Flat",   (empty device: the adapter's source)
        let first = out.measurements[0]
        #expect(first.start == 1_775_421_029)
        #expect(first.start == MappedSupport.utc(2026, 4, 5, 20, 30, 29))
        #expect(first.utcOffset == 0)
        #expect(first.value == 162)
        #expect(first.source.text == "nightscout")
        #expect(first.subject.text == "me")
        #expect(out.measurements.last?.start == 1_774_952_840)
    }

    @Test func nightscoutEntriesUnderSkipAndFail() throws {
        let path = MappedSupport.packageRoot.appendingPathComponent("samples/nightscout/cgm_format_nightscout_entries.csv").path
        let c = try MappedSupport.bundled("nightscout-entries-csv")
        let skipped = try MappedSupport.run(c, path: path, policy: .skip)
        #expect(skipped.context.skipped == 6 && skipped.quarantineLines.isEmpty && skipped.measurements.count == 994)
        #expect(throws: StageFailure.self) { _ = try MappedSupport.run(c, path: path, policy: .fail) }
    }

    @Test func nightscoutLegacyTSVUsesTheSameAdapter() throws {
        let out = try MappedSupport.run(try MappedSupport.bundled("nightscout-entries-csv"),
                                        path: MappedSupport.fixture("nightscout_entries_legacy.tsv"))
        #expect(out.measurements.map(\.value) == [178, 181])
        #expect(out.measurements.map(\.source.text) == ["dexcom", "dexcom"])
        #expect(out.measurements[0].start == 1_405_792_155)
        #expect(out.quarantineLines.count == 1)  // sgv 5, NOT COMPUTABLE
    }

    @Test func nightscoutExporterCGMSection() throws {
        let path = try MappedSupport.repositoryFile("samples/nightscout/cgm_format_nightscout-data-with-treatments.csv")
        let c = try MappedSupport.bundled("nightscout-exporter-cgm")
        let out = try MappedSupport.run(c, path: path, timezone: "America/New_York")
        #expect(out.measurements.count == 100)  // the CGM section; treatments are not read
        #expect(out.quarantineLines.isEmpty)
        #expect(out.measurements.map(\.value).reduce(0, +) == 15_418)
        // "4/7/2026","7:59:42 PM","129" in New York (EDT, −4 h)
        #expect(out.measurements[0].start == 1_775_606_382)
        #expect(out.measurements[0].utcOffset == -14_400)
        #expect(out.measurements[0].value == 129)
        #expect(out.measurements[0].provenance.line == 3)
        #expect(out.measurements.last?.start == 1_775_576_440)

        // Local times without a zone refuse the file rather than guess UTC.
        #expect(throws: InputError.self) { _ = try MappedSupport.run(c, path: path) }
    }
}
