import Foundation
import Testing

/// examples/spark/cohort.py on Apache Spark in local[2] mode over a generated cohort of 100
/// participants, twice, with one task killed mid-way (examples/spark/test_cohort.py says what it checks).
@Suite(.enabled(if: SparkPrerequisites.unavailable == nil, "\(SparkPrerequisites.unavailable ?? "")"))
struct SparkCohortTests {
    @Test func cohortTwiceWithAKilledTaskEqualsMetrics() throws {
        let work = E2E.tempDir()
        let log = work.appendingPathComponent("spark.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", E2E.packageRoot.appendingPathComponent("examples/spark/test_cohort.py").path,
                       "--binary", E2E.binary.path, "--participants", "100", "--work", work.appendingPathComponent("w").path]
        p.standardOutput = handle
        p.standardError = handle
        let started = Date()
        try p.run()
        // The issue's bound: five minutes.
        while p.isRunning, Date().timeIntervalSince(started) < 300 { Thread.sleep(forTimeInterval: 0.5) }
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let tail = String(output.split(separator: "\n").filter { !$0.contains("WARN") }.suffix(20).joined(separator: "\n"))
        #expect(p.terminationStatus == 0, "\(tail)")
        #expect(output.contains("ok: 100 participants"))
        try? FileManager.default.removeItem(at: work)
    }
}

enum SparkPrerequisites {
    /// Why the test cannot run here: pyspark (scripts/setup.sh installs it) or Java missing.
    static let unavailable: String? = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["sh", "-c", "command -v java >/dev/null && python3 -c 'import pyspark'"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "cannot run sh" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "pyspark or java not found (scripts/setup.sh installs pyspark; Java 17 is needed)"
    }()
}
