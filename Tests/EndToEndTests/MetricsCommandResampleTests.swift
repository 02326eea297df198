import Foundation
import Testing

/// The `resample` transform wired in a pipeline file: the stored grid equals iglu's reference grid.
@Suite struct MetricsCommandResampleTests {
    @Test func resampledRowsInTheDatabaseMatchTheReferenceGrid() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("grid.yml")
        let csv = E2E.fixtures.appendingPathComponent("reference/simglucose/irregular.csv").path
        try E2E.write("""
            sources:
              cgm: { type: simglucose, path: '\(csv)' }
            transforms:
              grid: { type: resample, inputs: [cgm], step_minutes: 5, max_gap_minutes: 45 }
            sinks:
              db: { type: sqlite, inputs: [cgm, grid], path: out.sqlite }
            """, to: yml)
        let r = try E2E.run(["run", yml.path])
        #expect(r.code == 0, "\(r.stderr)")
        let db = dir.appendingPathComponent("out.sqlite")
        var stored: [String: Double] = [:]
        for row in E2E.query(db, """
            SELECT subject, strftime('%Y-%m-%dT%H:%M:%S', start + utc_offset, 'unixepoch'), value FROM measurements
            WHERE source = 'resampled' AND flags = 128 AND subject IN ('adult#001', 'child#001')
            """) { stored[row[0] + "," + row[1]] = Double(row[2])! }
        let reference = try String(contentsOf: E2E.fixtures.appendingPathComponent("reference/reference_resample_iglu.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        var expectedPoints = 0, mismatches: [String] = []
        for line in reference {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            let key = "\(f[0]),\(f[1])"
            if f[2].isEmpty {
                if stored[key] != nil { mismatches.append("\(key) should be empty") }
            } else {
                expectedPoints += 1
                if !(stored[key].map { abs($0 - Double(f[2])!) <= 5e-5 + 1e-9 } ?? false) { mismatches.append("\(key): \(String(describing: stored[key]))") }
            }
        }
        #expect(expectedPoints > 7000)
        #expect(stored.count == expectedPoints)
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(5))")
        // The readings themselves are stored too, untouched.
        #expect(E2E.count(db, "measurements", "source = 'simglucose' AND flags & 128 = 0") == 36_340)
    }
}
