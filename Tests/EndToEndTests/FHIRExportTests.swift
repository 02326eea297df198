import Foundation
import Testing

/// The FHIR sink's export, validated against FHIR R4 (4.0.1) by scripts/validate_fhir.py.
@Suite struct FHIRExportTests {
    @Test func observationsAndPatientsValidateAgainstR4() throws {
        let dir = E2E.tempDir(), out = dir.appendingPathComponent("fhir")
        let pipeline = dir.appendingPathComponent("p.yml")
        let s = E2E.samples.path
        try E2E.write("""
            sources:
              cgm: { type: tidepool, path: '\(s)/tidepool/tidepool_export.json', subject: 'Sam Sample' }
              phone: { type: apple-health, path: '\(s)/apple-health/side-files_export.zip', subject: 'Sam Sample' }
              clarity: { type: dexcom-clarity, path: '\(s)/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv', timezone: Europe/London, subject: joe }
            sinks:
              clinic: { type: fhir, inputs: [cgm, phone, clarity], path: '\(out.path)' }
            """, to: pipeline)
        let r = try E2E.run(["run", pipeline.path])
        #expect(r.code == 3, "\(r.stderr)")  // the Tidepool sample has one bad reading
        let observations = try String(contentsOf: out.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
            .split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let expectedCount = 24 + 1 + 1 + 4 + 2 + 3922  // Tidepool cbg, smbg, ketone, basal rates; Apple HRV and heart rate; Clarity EGV
        #expect(observations.count == expectedCount)
        func codes(_ o: [String: Any]) -> [String] {
            ((o["code"] as? [String: Any])?["coding"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        let cgm = observations.filter { codes($0) == ["99504-3"] }.count
        let meter = observations.filter { codes($0) == ["41653-7"] }.count
        #expect(cgm == 24 + 3922)
        #expect(meter == 1)
        #expect(observations.contains { codes($0) == ["8867-4"] })
        #expect(observations.contains { codes($0) == ["80404-7"] })
        // Dexcom "Low" readings are off scale low.
        func interpretation(_ o: [String: Any]) -> String? {
            let first = (o["interpretation"] as? [[String: Any]])?.first
            return (first?["coding"] as? [[String: Any]])?.first?["code"] as? String
        }
        let offScaleLow = observations.filter { interpretation($0) == "<" }.count
        #expect(offScaleLow == 6)
        let patients = try String(contentsOf: out.appendingPathComponent("Patient.ndjson"), encoding: .utf8)
        #expect(patients.contains("\"gender\":\"female\"") && patients.contains("\"birthDate\":\"1985-02-03\""), "\(patients)")
        let v = try Process.run(python: E2E.packageRoot.appendingPathComponent("scripts/validate_fhir.py").path, args: [out.path])
        #expect(v.code == 0, "\(v.output)")
        #expect(v.output.contains("3956 passed, 0 failed"), "\(v.output)")
    }

    @Test func theValidatorRejectsABrokenResource() throws {
        let dir = E2E.tempDir()
        try E2E.write(#"{"resourceType":"Patient","id":"p1"}"# + "\n", to: dir.appendingPathComponent("Patient.ndjson"))
        try E2E.write(#"{"resourceType":"Observation","id":"o1","status":"final","code":{"text":"x"},"subject":{"reference":"Patient/p1"},"valueQuantity":{"value":"12"},"colour":"red"}"# + "\n",
                      to: dir.appendingPathComponent("Observation.ndjson"))
        let v = try Process.run(python: E2E.packageRoot.appendingPathComponent("scripts/validate_fhir.py").path, args: [dir.path])
        #expect(v.code == 1)
        #expect(v.output.contains("1 passed, 1 failed"), "\(v.output)")
    }
}

extension Process {
    /// Runs a Python script and returns its exit code and combined output.
    static func run(python script: String, args: [String]) throws -> (code: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension FHIRExportTests {
    /// Every percentage stored as a fraction (`MetricCatalogue`) leaves as FHIR's percent: the real iOS 14
    /// export's walking double support 0.262 is 26.2 %, asymmetry 0.03 is 3 %, as its body fat 0.243 is 24.3 % (the FHIR sink
    /// had a list of its own with body fat and oxygen saturation only, and wrote 0.262 %).
    @Test func everyFractionPercentageLeavesAsPercent() throws {
        let dir = E2E.tempDir(), out = dir.appendingPathComponent("fhir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = dir.appendingPathComponent("p.yml")
        let export = E2E.fixtures.appendingPathComponent("real/apple-health/apple-health-en-fr-ios14-garmin.xml").path
        try E2E.write("""
            sources:
              phone: { type: apple-health, path: '\(export)', subject: sam }
            sinks:
              clinic: { type: fhir, inputs: [phone], path: '\(out.path)' }
            """, to: pipeline)
        let r = try E2E.run(["run", pipeline.path])
        #expect(r.code == 0, "\(r.stderr)")
        let observations = try String(contentsOf: out.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
            .split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func values(_ metric: String) -> [Double] {
            observations.filter { ($0["code"] as? [String: Any])?["text"] as? String == metric }
                .compactMap { ($0["valueQuantity"] as? [String: Any])?["value"] as? Double }
        }
        for metric in ["walking_double_support_percentage", "walking_asymmetry_percentage", "body_fat_percentage"] {
            let v = values(metric)
            #expect(v.contains { $0 > 1 } && v.allSatisfy { (0...100).contains($0) }, "\(metric): \(v)")  // asymmetry is often 0
        }
        #expect(values("walking_double_support_percentage").contains { abs($0 - 26.2) < 1e-9 })
    }
}
