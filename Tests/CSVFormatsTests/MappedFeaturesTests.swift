import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// Spec features the bundled adapters do not all use: a preamble with a numbered header line,
/// `;` with decimal commas, split date/time, mmol/L conversion, scale, empty and bad cells, DST.
@Suite struct MappedFeaturesTests {
    static let meter = """
        name: meter-x
        description: Test meter export
        detect:
          header_contains: [date, time, glucose (mmol/l)]
          within_lines: 5
        header: 3
        separator: ";"
        decimal_comma: true
        timestamp: { date_column: Date, date_format: "%d.%m.%Y", time_column: Time, time_format: "%H:%M" }
        timezone: Europe/Berlin
        columns:
          Glucose (mmol/L): { metric: glucose, unit: mmol/L }
          HR (bpm/10): { metric: heart_rate, unit: count/min, scale: 10 }
          Carbs: { event: meal, skip_zero: true }
        """

    @Test func semicolonDecimalCommaMmol() throws {
        let c = try MappedSupport.adapter(Self.meter)
        let out = try MappedSupport.run(c, path: MappedSupport.fixture("meter_semicolon_mmol.csv"))
        let glucose = out.measurements.filter { $0.metric == Metrics.glucose }
        let hr = out.measurements.filter { $0.metric == Metrics.heartRate }

        // 5.5 and 10.0 mmol/L → 99 and 180 mg/dL (× 18.0156, rounded); 6.1 → 110
        #expect(glucose.map(\.value) == [99, 180, 110])
        #expect(glucose.allSatisfy { $0.unit.text == "mg/dL" && $0.flags.contains(.convertedFromMmol) })
        #expect(hr.map(\.value) == [72, 65])
        #expect(hr.allSatisfy { $0.unit.text == "count/min" && !$0.flags.contains(.convertedFromMmol) })
        #expect(out.events.count == 1 && out.events[0].carbs == 45 && out.events[0].kind == .meal)
        #expect(out.measurements.allSatisfy { $0.source.text == "meter-x" && $0.subject.text == "me" })

        // 05.03.2024 07:30 in Berlin (CET, +1) is 06:30 UTC.
        #expect(glucose[0].start == MappedSupport.utc(2024, 3, 5, 6, 30))
        #expect(glucose[0].utcOffset == 3600)
        #expect(glucose[0].provenance.line == 4)
        // 31.03.2024 02:30 falls in the spring-forward gap: shifted past it and flagged.
        #expect(glucose[2].start == MappedSupport.utc(2024, 3, 31, 1, 30))
        #expect(glucose[2].flags.contains(.nonexistentLocalTime))
        #expect(glucose[2].provenance.line == 9)

        // The "abc" row is rejected whole: its heart rate is not stored either.
        #expect(out.quarantineLines.count == 1)
        #expect(out.quarantineLines[0].contains("\"line\":6"))
        #expect(out.quarantineLines[0].contains("glucose ('glucose (mmol/l)'): 'abc' is not a number"))
        #expect(out.context.inputs.first?.rejected == 1)
    }

    @Test func timestampMismatchIsRejectedWithTheFormat() throws {
        let path = try MappedSupport.temporaryFile("bad.csv", "Date;Time;Glucose (mmol/L);HR (bpm/10);Carbs\n2024-03-05;07:30;5,5;;\n;;;;\n05.03.2024;07:31;5,6;;\n")
        let c = try MappedSupport.adapter(Self.meter.replacingOccurrences(of: "header: 3", with: "header: auto"))
        let out = try MappedSupport.run(c, path: path)
        #expect(out.measurements.count == 1)
        #expect(out.quarantineLines.count == 1)
        #expect(out.quarantineLines[0].contains("timestamp '2024-03-05 07:30' does not match the format '%d.%m.%Y %H:%M'"))
    }

    @Test func aFileOfAnotherFormatIsRefusedWhole() throws {
        let clarity = try MappedSupport.repositoryFile("samples/dexcom-clarity/cgmquantify_test_file.csv")
        #expect(throws: InputError.self) { _ = try MappedSupport.run(try MappedSupport.bundled("simglucose"), path: clarity) }
        #expect(throws: InputError.self) {
            _ = try MappedSupport.run(try MappedSupport.bundled("nightscout-exporter-cgm"), path: clarity, timezone: "UTC")
        }
    }

    @Test func headerMissingAMappedColumnIsRefused() throws {
        let path = try MappedSupport.temporaryFile("short.csv", "Date;Time;Glucose (mmol/L)\n05.03.2024;07:30;5,5\n")
        let c = try MappedSupport.adapter(Self.meter.replacingOccurrences(of: "header: 3", with: "header: auto"))
        do {
            _ = try MappedSupport.run(c, path: path)
            Issue.record("expected the file to be refused")
        } catch let e as InputError {
            #expect(e.line == 1)
            #expect(e.reason.contains("'hr (bpm/10)'") && e.reason.contains("'carbs'"))
        }
    }

    @Test func subjectAndSourceColumnsFallBackWhenEmpty() throws {
        let yaml = """
            name: two-people
            description: test
            detect: { header_contains: [when, who, device] }
            timestamp: { column: when, format: epoch }
            subject_column: who
            source_column: device
            source: fallback
            filter: { column: kind, values: [CGM] }
            columns:
              value: { metric: glucose, unit: mg/dL }
            """
        let path = try MappedSupport.temporaryFile("p.csv", "when,who,device,kind,value\n0,ann,g7,cgm,100\n60,,,CGM,101\n120,bob,g6,meter,102\n")
        let yamlWithKind = yaml.replacingOccurrences(of: "[when, who, device]", with: "[when, who, device, kind]")
        let out = try MappedSupport.run(try MappedSupport.adapter(yamlWithKind), path: path)
        #expect(out.measurements.map(\.value) == [100, 101])  // the meter row is filtered out, not rejected
        #expect(out.measurements.map(\.subject.text) == ["ann", "me"])
        #expect(out.measurements.map(\.source.text) == ["g7", "fallback"])
        #expect(out.quarantineLines.isEmpty)
        // A filter column must be among header_contains, like every structural column.
        #expect(throws: ConfigError.self) { _ = try MappedSupport.adapter(yaml) }
    }
}
