import Foundation
import HealthPipeTestSupport
import Testing

/// The fault-injection run (docs/reliability.md): `import` (two overlapping files, so the second
/// one's derived refresh rewrites days the first stored), `reaggregate` and `page` are killed with
/// SIGKILL at random points, over and over on one database, then the imports are run once more.
/// After every kill the store is intact, no reading or event is stored twice and the page file is
/// either absent or a whole page; at the end the store holds exactly what one clean run stores, and
/// every derived row equals a clean `reaggregate` of it.
///
/// `HEALTHPIPE_FAULT_KILLS` sets the number of kills (default 12; the documented run is 200) and
/// `HEALTHPIPE_FAULT_SEED` the random seed.
@Suite(.serialized) struct FaultInjectionTests {
    /// Clarity readings every 5 minutes from `first` to `first + count`; the value is a function of
    /// the time alone, so two files that overlap agree on every reading they share.
    static func clarity(from first: Int, count: Int, into url: URL) throws {
        var text = "Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,"
            + "Source Device ID,Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),"
            + "Glucose Rate of Change (mg/dL/min),Transmitter Time (Long Integer),Transmitter ID\n"
        let start = CivilDateForTests.epoch(2023, 1, 1)
        for i in first..<(first + count) {
            let t = start + Int64(i) * 300
            text += "\(i + 1),\(CivilDateForTests.iso(t)),EGV,,,,iOS G6,\(60 + (i * 7919) % 260),,,,,\(i),8ABCDE\n"
            if i % 97 == 0 { text += "\(i + 1),\(CivilDateForTests.iso(t + 60)),Insulin,Fast-Acting,,,iOS G6,,\(1 + i % 9),,,,,\n" }
            if i % 131 == 0 { text += "\(i + 1),\(CivilDateForTests.iso(t + 120)),Carbs,,,,iOS G6,,,\(10 + i % 50),,,,\n" }
        }
        try E2E.write(text, to: url)
    }

    /// Runs `args` and kills it after `delay` seconds; true when it was still running.
    static func killed(_ args: [String], after delay: TimeInterval) throws -> Bool {
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(delay)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let running = p.isRunning
        if running { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        return running
    }

    /// Stored readings and events: count and sums over their keys and values.
    static func fingerprint(_ db: URL) -> [String] {
        [E2E.scalar(db, "SELECT count(*) || ':' || sum(start % 100003) || ':' || sum(value) FROM measurements WHERE flags & 128 = 0"),
         E2E.scalar(db, "SELECT count(*) || ':' || sum(start % 100003) || ':' || total(insulin_u) || ':' || total(carbs_g) FROM events")]
    }

    @Test func killedAnywhereTheStoreStaysWholeAndEndsExact() throws {
        let env = ProcessInfo.processInfo.environment
        let kills = Int(env["HEALTHPIPE_FAULT_KILLS"] ?? "") ?? 12
        var random = SplitMix64(seed: UInt64(env["HEALTHPIPE_FAULT_SEED"] ?? "") ?? 20_261_126)
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.csv"), b = dir.appendingPathComponent("b.csv")
        try Self.clarity(from: 0, count: 30_000, into: a)
        try Self.clarity(from: 15_000, count: 30_000, into: b)
        let db = dir.appendingPathComponent("h.sqlite"), clean = dir.appendingPathComponent("clean.sqlite")
        let page = dir.appendingPathComponent("page.html")
        let importA = ["import", a.path, "--timezone", "Europe/Berlin", "--db"], importB = ["import", b.path, "--timezone", "Europe/Berlin", "--db"]

        // The clean run, timed: kills land anywhere in each command's own duration.
        var duration: [String: TimeInterval] = [:]
        func timed(_ name: String, _ args: [String]) throws {
            let started = Date()
            let r = try E2E.run(args)
            #expect(r.code == 0, "\(name): \(r.stderr)")
            duration[name] = Date().timeIntervalSince(started)
        }
        try timed("import a", importA + [clean.path])
        try timed("import b", importB + [clean.path])
        try timed("reaggregate", ["reaggregate", "--db", clean.path])
        try timed("page", ["page", "--db", clean.path, "-o", dir.appendingPathComponent("clean.html").path])

        let commands: [(String, [String])] = [("import a", importA + [db.path]), ("import b", importB + [db.path]),
                                              ("reaggregate", ["reaggregate", "--db", db.path]),
                                              ("page", ["page", "--db", db.path, "-o", page.path])]
        var interrupted: [String: Int] = [:]
        for k in 0..<kills {
            // The page and reaggregate need a database: the first command is an import.
            let (name, args) = k == 0 ? commands[0] : commands[Int(random.next() % UInt64(commands.count))]
            let delay = Double.random(in: 0..<1, using: &random) * (duration[name] ?? 1) * 1.1
            if try Self.killed(args, after: delay) { interrupted[name, default: 0] += 1 }
            guard FileManager.default.fileExists(atPath: db.path) else { continue }
            #expect(E2E.scalar(db, "PRAGMA integrity_check") == "ok", "kill \(k) (\(name) at \(delay) s)")
            #expect(E2E.count(db, "(SELECT subject, kind, start, source FROM events GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)") == 0,
                    "kill \(k): an event stored twice")
            if let html = try? String(contentsOf: page, encoding: .utf8) {
                #expect(html.hasSuffix("</html>\n") || html.hasSuffix("</html>"), "kill \(k): a partial page was left")
            }
        }
        // Every command was really cut off part of the time.
        #expect(interrupted.values.reduce(0, +) >= kills / 3, "\(interrupted)")

        #expect(try E2E.run(importA + [db.path]).code == 0)
        #expect(try E2E.run(importB + [db.path]).code == 0)
        #expect(Self.fingerprint(db) == Self.fingerprint(clean))
        #expect(E2E.count(db, "derived_pending") == 0)
        let derived = DerivedSnapshot(db)
        #expect(derived.difference(from: DerivedSnapshot(clean)) == nil, "\(derived.sizes)")
        // And the same rows a reaggregate of this very store gives.
        let copy = dir.appendingPathComponent("copy.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: db.path + suffix) {
            try FileManager.default.copyItem(atPath: db.path + suffix, toPath: copy.path + suffix)
        }
        #expect(try E2E.run(["reaggregate", "--db", copy.path]).code == 0)
        #expect(derived.difference(from: DerivedSnapshot(copy)) == nil)
        print("fault injection: \(kills) kills, interrupted \(interrupted), clean durations \(duration)")
    }
}
