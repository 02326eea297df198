import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// The real Libre 3 export (samples/libreview): 1-line preamble, DD-MM-YYYY, record types 0/1/6.
@Suite struct LibreViewSampleTests {
    let path = SourceHarness.sample("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")

    @Test func countsMatchTheFile() throws {
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: nil))
        // 5,559 lines: preamble + header + 4,305 type 0 + 316 type 1 + 936 type 6 (all 936 empty: read, not stored).
        #expect(r.input.rowsRead == 5559)
        #expect(r.input.measurements == 4621)
        #expect(r.input.events == 0)
        #expect(r.input.rejected == 0)
        #expect(r.measurements.count == 4621 && r.events.isEmpty && r.quarantined.isEmpty)
        #expect(r.input.format == "libreview")
        #expect(r.input.hash.count == 16)

        let glucose = r.measurements.filter { $0.metric == Metrics.glucose }
        #expect(glucose.count == 4621)
        // Sums computed independently from the file (historic 372,056 mg/dL; scan 29,908 mg/dL).
        #expect(glucose.reduce(0) { $0 + $1.value } == 372_056 + 29_908)
        #expect(r.measurements.allSatisfy { $0.unit == CanonicalUnits.glucose && $0.flags.isEmpty })
        // Scans are readings of their own (source "<device> (scan)"): a historic reading often shares their minute.
        #expect(Set(r.measurements.map(\.source)) == [Symbol("FreeStyle Libre 3"), Symbol("FreeStyle Libre 3 (scan)")])
        #expect(r.measurements.filter { $0.source.text.hasSuffix("(scan)") }.count == 316)
        #expect(Set(r.measurements.map(\.subject)) == [Symbol("tester")])
    }

    @Test func spotChecksInLondon() throws {
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: nil))
        // Line 3: `12-04-1961 22:30,0,98`, British Summer Time in April 1961 (+01:00).
        let first = try #require(r.measurements.first)
        #expect(first.provenance.line == 3)
        #expect(first.provenance.file == Symbol(path))
        #expect(first.value == 98)
        #expect(first.start == SourceHarness.utc(1961, 4, 12, 21, 30))
        #expect(first.start == -275_193_000)
        #expect(first.utcOffset == 3600)
        // Line 4308: the first scan, `12-04-1961 22:35,1,,107`.
        let scan = try #require(r.measurements.first { $0.provenance.line == 4308 })
        #expect(scan.value == 107 && scan.metric == Metrics.glucose)
        #expect(scan.start == SourceHarness.utc(1961, 4, 12, 21, 35))
        // Line 4307: the last historic reading, `27-04-1961 21:10,0,103` (day 27 settles DD-MM).
        let last = try #require(r.measurements.first { $0.provenance.line == 4307 })
        #expect(last.value == 103 && last.start == -273_901_800)
    }

    @Test func spotChecksInUTC() throws {
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: "UTC"), dateOrder: nil))
        let first = try #require(r.measurements.first)
        #expect(first.start == SourceHarness.utc(1961, 4, 12, 22, 30))
        #expect(first.utcOffset == 0)
    }

    @Test func dateOrderIsInferredOverTheWholeFile() throws {
        #expect(try LibreDateOrderScan.infer(path: path, configured: nil) == .dmy)
        #expect(try LibreDateOrderScan.infer(path: path, configured: .dmy) == .dmy)
        // The file proves DD-MM (`13-04-1961` on line 21): a configured mdy would swap days and months silently.
        let error = try #require(throws: InputError.self) {
            try LibreDateOrderScan.infer(path: path, configured: .mdy)
        }
        #expect(error.line == 21 && error.reason.contains("'13-04-1961 00:00' can only be DD-MM-YYYY"))
    }
}
