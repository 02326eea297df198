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

/// An Apple Health export to NDJSON keeps each record's device and metadata as nested objects.
@Suite struct NDJSONAppleHealthTests {
    @Test func deviceAndMetadataAreNestedObjects() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("p.yml")
        try E2E.write("""
        sources:
          apple: { type: apple-health, path: '\(AppleHealthImportTests.zip)' }
        sinks:
          feed: { type: ndjson, inputs: [apple], path: out.ndjson }
        """, to: yml)
        let r = try E2E.run(["run", yml.path])
        #expect(r.code == 0, "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("out.ndjson"), encoding: .utf8)
        let heart = try #require(text.split(separator: "\n").first { $0.contains("\"metric\":\"heart_rate\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(heart.utf8)) as? [String: Any])
        let device = try #require(object["device"] as? [String: String])
        #expect(device["hardware"] == "Watch2,4" && device["software"] == "4.3.1")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["motion_context"] as? String == "unset")
    }
}
