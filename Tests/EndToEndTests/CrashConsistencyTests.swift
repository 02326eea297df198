import Foundation
import Testing

/// SIGKILL in the middle of an import leaves a consistent database, and re-running the same
/// command completes it to exactly what one clean run produces.
@Suite struct CrashConsistencyTests {
    /// Starts `healthpipe import csv --db db` and returns once its first transaction has committed
    /// (measurements are in the database) or it has ended, or after a minute.
    static func importUntilCommitted(_ csv: URL, into db: URL) throws -> Process {
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = ["import", csv.path, "--db", db.path, "--timezone", "UTC"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning, Date() < deadline {
            if FileManager.default.fileExists(atPath: db.path), E2E.count(db, "measurements") > 0 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return p
    }

    /// Writes a Clarity export of `rows` EGV readings (every tenth hour an insulin dose), in the
    /// 14-column layout with metadata rows, large enough that an import can be killed halfway.
    static func generate(rows: Int, into dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("clarity-\(rows).csv")
        var text = "\u{FEFF}Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,"
            + "Source Device ID,Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),"
            + "Glucose Rate of Change (mg/dL/min),Transmitter Time (Long Integer),Transmitter ID\n"
            + "1,,FirstName,,Test,,,,,,,,,\n2,,Device,,,Dexcom G6 Mobile App,iOS G6,,,,,,,\n"
        text.reserveCapacity(rows * 80)
        let start = CivilDateForTests.epoch(2020, 1, 1)
        for i in 0..<rows {
            let t = start + Int64(i) * 300
            let glucose = 60 + (i * 7919) % 260
            text += "\(i + 3),\(CivilDateForTests.iso(t)),EGV,,,,iOS G6,\(glucose),,,,,\(i),8ABCDE\n"
            if i % 120 == 0 { text += "\(i + 3),\(CivilDateForTests.iso(t + 60)),Insulin,Fast-Acting,,,iOS G6,,\(1 + i % 9),,,,,\n" }
        }
        try Data(text.utf8).write(to: out)
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
        // Once at least one transaction has committed, kill without warning.
        let p = try Self.importUntilCommitted(csv, into: crashed)
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
        // Stop it once the first batch has committed, i.e. genuinely mid-import.
        let p = try Self.importUntilCommitted(csv, into: db)
        let stoppedMidway = p.isRunning
        p.terminate()
        p.waitUntilExit()
        #expect(stoppedMidway, "the import finished before SIGTERM; use a larger input")
        // A clean stop: the documented exit code, not death by the signal, and the import marked interrupted.
        #expect(p.terminationReason == .exit && p.terminationStatus == 1)
        #expect(E2E.scalar(db, "PRAGMA integrity_check") == "ok")
        #expect(E2E.scalar(db, "SELECT status FROM imports") == "interrupted")
        let partial = E2E.count(db, "measurements")
        #expect(partial > 0 && partial < 400_000)
        // Running the same command again completes it.
        #expect(try E2E.run(["import", csv.path, "--db", db.path, "--timezone", "UTC"]).code == 0)
        #expect(E2E.count(db, "measurements") == 400_000)
        #expect(E2E.scalar(db, "SELECT status FROM imports") == "complete")
    }
}

/// Timestamps for generated fixtures, independent of the code under test.
enum CivilDateForTests {
    static func epoch(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
        var c = DateComponents()
        c.year = y; c.month = m; c.day = d
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        return Int64(cal.date(from: c)!.timeIntervalSince1970)
    }

    static func iso(_ t: Int64) -> String {
        let days = t / 86_400, secs = t % 86_400
        // Civil-from-days (fixture dates are after 1970, so no negative handling is needed).
        let z = days + 719_468, era = z / 146_097, doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func p(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(p(m))-\(p(d)) \(p(secs / 3600)):\(p(secs / 60 % 60)):\(p(secs % 60))"
    }
}
