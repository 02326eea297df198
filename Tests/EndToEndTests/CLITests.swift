import Foundation
import Testing

/// `run`, `validate` and `plugins` through the real binary.
@Suite struct CLITests {
    @Test func pluginsListsEveryComponentWithOptions() throws {
        let r = try E2E.run(["plugins"])
        #expect(r.code == 0)
        for name in ["dexcom-clarity", "libreview", "medtronic-carelink", "classify", "daily", "sqlite", "ndjson", "simglucose"] {
            #expect(r.stdout.contains("  \(name)  ["), "missing \(name)")
        }
        #expect(r.stdout.contains("timezone: IANA zone"))
        let one = try E2E.run(["plugins", "classfy"])
        #expect(one.code == 2 && one.stderr.contains("did you mean 'classify'"))
    }

    @Test func validateReportsEveryErrorWithLocation() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("p.yml")
        try E2E.write("""
        sources:
          cgm: { type: dexcom-clarty, path: x.csv }
          other: { type: dexcom-clarity, path: y.csv, timezon: UTC }
        transforms:
          bands: { type: classify, inputs: [cgmm] }
        sinks:
          db: { type: sqlite, inputs: [bands], path: out.sqlite }
        """, to: yml)
        let r = try E2E.run(["validate", yml.path])
        #expect(r.code == 2)
        #expect(r.stderr.contains("p.yml:2:16: error: unknown source type 'dexcom-clarty' (did you mean 'dexcom-clarity'?)"))
        #expect(r.stderr.contains("p.yml:5:37: error: unknown input 'cgmm' (did you mean 'cgm'?)"))
        // The stage-level check stops before option decoding, so fix those first and see the option error.
        try E2E.write("""
        sources:
          other: { type: dexcom-clarity, path: y.csv, timezon: UTC }
        sinks:
          db: { type: sqlite, inputs: [other], path: out.sqlite }
        """, to: yml)
        let r2 = try E2E.run(["validate", yml.path])
        #expect(r2.code == 2 && r2.stderr.contains("p.yml:2:47") && r2.stderr.contains("did you mean 'timezone'"))
    }

    @Test func validateAcceptsTheSamplePipelines() throws {
        for name in ["clarity-to-sqlite.yml", "all-cgm.yml"] {
            let r = try E2E.run(["validate", E2E.samples.appendingPathComponent("pipelines/\(name)").path, "--timezone", "UTC"])
            #expect(r.code == 0, "\(name): \(r.stderr)")
        }
    }

    @Test func runExecutesAPipelineFileWithReport() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("p.yml")
        let csv = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path
        try E2E.write("""
        timezone: ${TEST_TZ}
        sources:
          cgm: { type: dexcom-clarity, path: '\(csv)' }
        transforms:
          bands: { type: classify, inputs: [cgm], preset: consensus }
          days: { type: daily, inputs: [bands] }
        sinks:
          db: { type: sqlite, inputs: [bands, days], path: out.sqlite }
          feed: { type: ndjson, inputs: [days], path: days.ndjson }
        """, to: yml)
        let r = try E2E.run(["run", yml.path, "--report", dir.appendingPathComponent("report.json").path], env: ["TEST_TZ": "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
        let db = dir.appendingPathComponent("out.sqlite")
        #expect(E2E.count(db, "measurements", "band IN ('very_low','low','in_range','high','very_high')") == 2148)
        let lines = try String(contentsOf: dir.appendingPathComponent("days.ndjson"), encoding: .utf8).split(separator: "\n")
        let days = lines.filter { $0.contains("\"type\":\"daily\"") }
        #expect(days.count == 9 && days[0].contains("\"day\":\"2016-10-24\""))
        // …followed by the glucose metric set of each day with readings.
        #expect(lines.count - days.count == E2E.count(db, "glucose_metrics", "name = 'mean'"))
        #expect(lines.last?.contains("\"type\":\"metrics\"") == true && lines.last?.contains("\"mean\":") == true)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("report.json"))) as! [String: Any]
        #expect(report["outcome"] as? String == "completed")
        #expect((report["inputs"] as? [[String: Any]])?.first?["measurements"] as? Int == 2148)
    }

    @Test func unknownTypeInRunExits2() throws {
        let dir = E2E.tempDir()
        let yml = dir.appendingPathComponent("p.yml")
        try E2E.write("sources:\n  a: { type: nope, path: x }\nsinks:\n  db: { type: sqlite, inputs: [a], path: o.sqlite }\n", to: yml)
        let r = try E2E.run(["run", yml.path])
        #expect(r.code == 2 && r.stderr.contains("p.yml:2:14"))
    }
}
