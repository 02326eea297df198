import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// Oura's trends CSV (a real excerpt in Tests/Fixtures/real/oura; counts by count.py, checked by
/// RealCorpusTests): one row per day at its local midnight, `None` for no value.
@Suite struct OuraExportTests {
    @Test func daysAreLocalMidnightsAndNoneIsNoValue() throws {
        let path = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/oura/oura_2026-05-22_2026-07-23_trends.csv").path
        #expect(try FitbitSourcesTests.detected(path) == "oura-trends")
        let out = try FitbitSourcesTests.run("oura-trends", path, options: "timezone: America/Los_Angeles\n")
        #expect(out.quarantineLines.isEmpty)
        let readiness = out.measurements.filter { $0.metric == Symbol("oura.readiness") }
        // 2026-05-27 at midnight in Los Angeles (−07:00) = 07:00Z.
        #expect(readiness.first?.start == 1_779_865_200 && readiness.first?.utcOffset == -25_200 && readiness.first?.value == 85)
        // One value per day; the None cells of the excerpt lie in columns not imported (balance scores).
        #expect(readiness.count == 7 && out.measurements.filter { $0.metric == Symbol("oura.temperature_deviation") }.count == 7)
    }
}
