import Foundation
import Testing

/// SIGKILL in the middle of an import leaves a consistent database, and re-running the same
/// command completes it to exactly what one clean run produces.
@Suite struct CrashConsistencyTests {
    static func generate(rows: Int, into dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("clarity-\(rows).csv")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", E2E.shared.appendingPathComponent("tools/gen_cgm_csv.py").path, "-n", String(rows), "-o", out.path]
        try p.run()
        p.waitUntilExit()
        return out
    }

    /// A fingerprint of every stored reading and event.
    func fingerprint(_ db: URL) -> [String] {
        [E2E.scalar(db, "SELECT count(*) || ':' || sum(start % 100003) || ':' || sum(value) || ':' || sum(flags) FROM measurements"),
         E2E.scalar(db, "SELECT count(*) || ':' || sum(start % 100003) || ':' || total(insulin_u) || ':' || total(carbs_g) FROM events"),
         E2E.scalar(db, "SELECT count(*) || ':' || total(mean) || ':' || total(n) FROM daily_summaries")]
    }

    @Test func killedImportIsConsistentAndRerunCompletes() throws {
        let dir = E2E.tempDir()
        let csv = try Self.generate(rows: 400_000, into: dir)
        let clean = dir.appendingPathComponent("clean.sqlite")
        #expect(try E2E.run(["import", csv.path, "--db", clean.path, "--timezone", "UTC"]).code == 0)

        let crashed = dir.appendingPathComponent("crashed.sqlite")
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = ["import", csv.path, "--db", crashed.path, "--timezone", "UTC"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait until at least one transaction has committed, then kill without warning.
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning, Date() < deadline {
            if FileManager.default.fileExists(atPath: crashed.path), E2E.count(crashed, "measurements") > 0 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let killedMidway = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(killedMidway, "the import finished before it could be killed; use a larger input")

        #expect(E2E.scalar(crashed, "PRAGMA integrity_check") == "ok")
        let partial = E2E.count(crashed, "measurements")
        #expect(partial > 0)
        #expect(E2E.scalar(crashed, "SELECT status FROM imports") == "running")

        let rerun = try E2E.run(["import", csv.path, "--db", crashed.path, "--timezone", "UTC"])
        #expect(rerun.code == 0, "\(rerun.stderr)")
        #expect(fingerprint(crashed) == fingerprint(clean))
        #expect(E2E.scalar(crashed, "SELECT status FROM imports") == "complete")
    }

    @Test func sigtermStopsCleanlyWithCommittedData() throws {
        let dir = E2E.tempDir()
        let csv = try Self.generate(rows: 400_000, into: dir)
        let db = dir.appendingPathComponent("t.sqlite")
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = ["import", csv.path, "--db", db.path, "--timezone", "UTC"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: 0.3)
        p.terminate()
        p.waitUntilExit()
        #expect(p.terminationStatus == 1 || p.terminationStatus == 0)
        #expect(E2E.scalar(db, "PRAGMA integrity_check") == "ok")
        if p.terminationStatus == 1 { #expect(E2E.scalar(db, "SELECT status FROM imports") == "interrupted") }
    }
}
