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
        // The cohort tables also go to a real PostgreSQL over JDBC.
        // scripts/setup.sh installs both: their absence is a failure here, not a silent skip of the JDBC check.
        if let missing = SparkPrerequisites.jdbcUnavailable { Issue.record("the JDBC write cannot be checked: \(missing)") }
        let server = SparkPrerequisites.jdbcUnavailable == nil ? try PostgresServer() : nil
        defer { server?.stop() }
        var arguments = [E2E.packageRoot.appendingPathComponent("examples/spark/test_cohort.py").path,
                         "--binary", E2E.binary.path, "--participants", "100", "--work", work.appendingPathComponent("w").path]
        if let server {
            try server.createDatabase("cohort")
            arguments += ["--jdbc-url", "jdbc:postgresql://127.0.0.1:\(server.port)/cohort", "--jdbc-user", PostgresServer.user]
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + arguments
        p.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": PostgresServer.password]) { $1 }
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
        if let server, p.terminationStatus == 0 {
            try Self.expectJDBCTablesEqualParticipants(server, work.appendingPathComponent("w/out/cohort/participants.json"))
        }
        try? FileManager.default.removeItem(at: work)
    }

    /// What Spark wrote over JDBC is the cohort table the driver wrote as JSON, row for row.
    static func expectJDBCTablesEqualParticipants(_ server: PostgresServer, _ json: URL) throws {
        let table = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [[String: Any]])
        let stored = try server.query("cohort", "SELECT participant, n_readings, mean, tir_70_180_pct FROM cohort_participants ORDER BY participant")
        #expect(stored.count == table.count && stored.count == 100, "\(stored.count) rows over JDBC, \(table.count) in participants.json")
        for (row, expected) in zip(stored, table) {
            #expect(row[0] == expected["participant"] as? String)
            #expect(Int(row[1]) == (expected["n_readings"] as? NSNumber)?.intValue)
            for (cell, key) in zip(row[2...], ["mean", "tir_70_180_pct"]) {
                let want = (expected[key] as? NSNumber)?.doubleValue ?? .nan
                #expect(Double(cell).map { abs($0 - want) <= 1e-9 * max(1, abs(want)) } == true, "\(row[0]) \(key): \(cell) vs \(want)")
            }
        }
        let distribution = try server.query("cohort", "SELECT count(*) FROM cohort_distribution")
        #expect((Int(distribution.first?.first ?? "") ?? 0) > 0, "cohort_distribution is empty")
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

    /// Why the JDBC write cannot be checked here: no PostgreSQL server binaries or no JDBC driver.
    static let jdbcUnavailable: String? = PostgresServer.unavailable
        ?? (FileManager.default.fileExists(atPath: "/usr/share/java/postgresql.jar") ? nil : "no /usr/share/java/postgresql.jar (libpostgresql-jdbc-java)")
}
