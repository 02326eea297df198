import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// A LibreView US patient report is sorted by the device's local clock, so the two passes through
/// the fall-back hour stand side by side (01:06 AM twice, 01:21 AM twice, …). Both passes must land,
/// each on its own instant, whichever way the file runs.
@Suite struct LibreViewFallBackTests {
    static let fixture = SourceHarness.repoRoot
        .appendingPathComponent("Tests/Fixtures/dst/libreview-us-patient-report-fall-back.csv")

    /// The fixture's lines, and the historic rows (record type 0) in the file's order.
    func layout() throws -> (head: [String], historic: [String], rest: [String]) {
        let lines = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        let body = lines.dropFirst(3)
        return (Array(lines.prefix(3)), body.filter { $0.split(separator: ",")[3] == "0" },
                body.filter { $0.split(separator: ",")[3] != "0" })
    }

    /// The first historic row (31 October, a day above 12) tells the file's date order.
    func historicReadings(_ lines: [String], scansInOrder: Bool = true) throws -> [(start: Int64, value: Double)] {
        let path = try SourceHarness.file(lines.joined(separator: "\n") + "\n")
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: "America/New_York"), dateOrder: nil))
        #expect(r.input.rejected == 0)
        let glucose = r.measurements.filter { $0.metric == Metrics.glucose && $0.start >= SourceHarness.utc(2019, 11, 3, 0, 0) }
        // The two scans (01:12 and 01:44 AM, once each, after the historic rows) land; after the
        // oldest-first historic rows they are on the first pass.
        let scans = glucose.filter { $0.start % 900 != 360 }.map(\.start).sorted()
        #expect(scans.count == 2)
        // Whatever the order, each scan is on one of its clock time's two instants (EDT or EST pass).
        let passes = [(5, 12), (6, 12), (5, 44), (6, 44)].map { SourceHarness.utc(2019, 11, 3, $0.0, $0.1) }
        #expect(scans.allSatisfy(passes.contains), "\(scans)")
        if scansInOrder { #expect(scans == [SourceHarness.utc(2019, 11, 3, 5, 12), SourceHarness.utc(2019, 11, 3, 5, 44)]) }
        // The historic rows are on the sensor's 15-minute grid (minute 6 of each quarter).
        return glucose.filter { $0.start % 900 == 360 }.map { ($0.start, $0.value) }.sorted { $0.start < $1.start }
    }

    /// 12:06 AM EDT is 04:06Z; the first pass of 01:06 AM is 05:06Z (EDT), the second 06:06Z (EST).
    static let expected: [(Int64, Double)] = [
        (4, 6, 80), (4, 21, 78), (4, 36, 77), (4, 51, 76),
        (5, 6, 75), (5, 21, 74), (5, 36, 73), (5, 51, 72),
        (6, 6, 75), (6, 21, 75), (6, 36, 76), (6, 51, 77),
        (7, 6, 78), (7, 21, 79),
    ].map { (SourceHarness.utc(2019, 11, 3, $0.0, $0.1), Double($0.2)) }

    func expectAllLand(_ got: [(start: Int64, value: Double)]) {
        #expect(got.map(\.start) == Self.expected.map(\.0))
        #expect(got.map(\.value) == Self.expected.map(\.1))
    }

    @Test func pairsOfEqualClockTimesInAnOldestFirstFileBothLand() throws {
        let f = try layout()
        expectAllLand(try historicReadings(f.head + f.historic + f.rest))
    }

    @Test func pairsInANewestFirstFileBothLand() throws {
        let f = try layout()
        expectAllLand(try historicReadings(f.head + f.historic.reversed() + f.rest, scansInOrder: false))
    }

    @Test func thePassesOneAfterTheOtherBothLand() throws {
        let f = try layout()
        // Real-time order: the first pass (each pair's first row), then the second.
        let h = f.historic
        #expect(h.count == 15)  // 31 October, four rows before the hour, four pairs, two after
        let timeOrder = Array(h[0..<5]) + stride(from: 5, to: 13, by: 2).map { h[$0] }
            + stride(from: 6, to: 13, by: 2).map { h[$0] } + Array(h[13...])
        expectAllLand(try historicReadings(f.head + timeOrder + f.rest))
        expectAllLand(try historicReadings(f.head + timeOrder.reversed() + f.rest, scansInOrder: false))
    }
}
