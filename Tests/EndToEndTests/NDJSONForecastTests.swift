import Foundation
import Testing

/// Every record kind a pipeline can produce reaches an NDJSON file: forecasts and alerts included.
@Suite struct NDJSONForecastTests {
    @Test func forecastsAndAlertsAreWritten() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("p.yml")
        let csv = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path
        try E2E.write("""
        timezone: UTC
        sources:
          cgm: { type: dexcom-clarity, path: '\(csv)' }
        transforms:
          ahead: { type: predict, inputs: [cgm], model: ar2, issue: every }
          warn: { type: alerts, inputs: [cgm], model: ar2, low: 80 }
        sinks:
          feed: { type: ndjson, inputs: [ahead, warn], path: out.ndjson, include: [forecasts, alerts] }
        """, to: yml)
        let r = try E2E.run(["run", yml.path])
        #expect(r.code == 0, "\(r.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("out.ndjson"), encoding: .utf8).split(separator: "\n")
        let forecasts = lines.filter { $0.contains("\"type\":\"forecast\"") }
        #expect(forecasts.count > 1000)
        #expect(forecasts.first?.contains("\"model\":\"ar2\"") == true)
        #expect(lines.allSatisfy { $0.contains("\"type\":\"forecast\"") || $0.contains("\"type\":\"alert\"") })
    }
}
