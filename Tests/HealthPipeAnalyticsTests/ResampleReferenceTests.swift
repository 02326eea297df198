import HealthPipeAnalytics
import HealthPipeCore
import Testing

/// The resampling grid against iglu's CGMS2DayByDay(dt0 = 5, inter_gap = 45) on the irregular copy.
@Suite struct ResampleReferenceTests {
    @Test(arguments: ["adult#001", "child#001"])
    func everyGridPointMatchesIglu(patient: String) throws {
        let s = try MetricsReferenceData.readings(file: "irregular.csv", patient: patient)
        let grid = DayByDayGrid(times: s.times, values: s.values)
        let rows = try MetricsReferenceData.lines("reference_resample_iglu.csv").filter { $0.hasPrefix(patient + ",") }
        #expect(rows.count == 4320)
        #expect(grid.values.count == rows.count)
        var mismatches: [String] = []
        for (k, row) in rows.enumerated() {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            // Point k + 1 of the grid sits at origin + (k + 1)·5 min: the corrected time in the file.
            #expect(grid.origin + Int64(k + 1) * 300 == MetricsReferenceData.seconds(f[1]))
            let ours = k < grid.values.count ? grid.values[k] : .nan
            if f[2].isEmpty {
                if !ours.isNaN { mismatches.append("\(f[1]): expected empty, got \(ours)") }
            } else if ours.isNaN || abs(ours - Double(f[2])!) > 5e-5 + 1e-9 { // the file rounds to 4 decimals
                mismatches.append("\(f[1]): expected \(f[2]), got \(ours)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func workedExampleOfTheSpecification() throws {
        // analytics.md §5.4: 152.12 at 23:59:12 and 148.52 at 00:04:09 give 151.5382 at midnight.
        let s = try MetricsReferenceData.readings(file: "irregular.csv", patient: "adult#001")
        let grid = DayByDayGrid(times: s.times, values: s.values)
        let midnight = MetricsReferenceData.seconds("2024-01-01T00:00:00")
        let k = Int((midnight - grid.origin) / 300) - 1
        #expect(abs(grid.values[k] - 151.5382) < 5e-5)
        // The 2023-12-31 row is empty except for its 24:00 column.
        #expect(grid.values[0..<287].allSatisfy { $0.isNaN })
    }
}
