import Foundation
import Testing

/// Appending to a subject PostgreSQL already stores keeps the day rule SQLite keeps (`DayFreshness`):
/// the daily rows of days the store had nothing of, whose rows were all inserted new, are written
/// from the import's stream and taken off `derived_pending` in its last transaction; every other
/// changed day is left to the refresh. Each case checks the derived rows against a clean
/// `reaggregate` of the same store, and what the refresh after the append re-read — the readings of
/// the days it could not take from the stream, no more.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresAppendTests {
    /// In the generated export (5-minute readings from 2020-01-01 UTC, a dose after every 120th),
    /// reading 2,880 opens 2020-01-11.
    static let midnight = 2_880, day = 288

    /// Readings and doses of the generated export of `rows` readings on its (0-based) `days`.
    static func records(onDays days: ClosedRange<Int>, rows: Int = PostgresRefreshByDayTests.rows) -> Int {
        let readings = (days.lowerBound * day)..<min(rows, (days.upperBound + 1) * day)
        return readings.count + readings.filter { $0 % 120 == 0 }.count
    }

    /// The derived tables and the column that holds each row's local day.
    static let dayTables = [("daily_summaries", "day"), ("daily_bands", "day"), ("glucose_metrics", "period_start"),
                            ("glucose_agp", "period_start"),
                            ("measurements", "to_char(to_timestamp(start + utc_offset) AT TIME ZONE 'UTC', 'YYYY-MM-DD')")]

    /// Imports `files` in one run; the readings and events the refresh after it re-read (nil: none ran).
    @discardableResult
    static func importRun(_ files: [URL], _ url: String, in dir: URL, exitCode: Int32 = 0) throws -> (refreshRead: Int?, stderr: String) {
        let report = dir.appendingPathComponent("report-\(UUID().uuidString).json")
        let r = try E2E.run(["import"] + files.map(\.path) + ["--db", url, "--timezone", "UTC", "--report", report.path], cwd: dir)
        #expect(r.code == exitCode, "import \(files.map(\.lastPathComponent)): \(r.stderr)")
        guard let data = try? Data(contentsOf: report),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let stages = json["stages"] as? [[String: Any]] else { return (nil, r.stderr) }
        let refresh = stages.first { $0["name"] as? String == "refresh db" }
        return ((refresh?["records_out"] as? NSNumber)?.intValue, r.stderr)
    }

    /// Every derived row of a (subject, day) not pending in `db` equals the row a clean `reaggregate`
    /// of a copy of it computes (all of them when nothing is pending): what the rule promises at any time.
    static func expectExact(_ server: PostgresServer, _ db: String, _ what: String) throws {
        let copy = db + "_clean"
        try server.query("postgres", "DROP DATABASE IF EXISTS \(copy)")
        try server.query("postgres", "CREATE DATABASE \(copy) TEMPLATE \(db)")
        let r = try E2E.run(["reaggregate", "--db", server.url(copy), "--timezone", "UTC"])
        #expect(r.code == 0, "\(what): reaggregate: \(r.stderr)")
        let pending = Set(try server.query(db, "SELECT subject || '/' || day FROM derived_pending").map { $0[0] })
        let whole = Set(pending.filter { $0.hasSuffix("/*") }.map { String($0.dropLast(2)) })
        var compared = 0
        for (table, dayColumn) in dayTables {
            let columns = table == "measurements" ? "subject, metric, source, start, \"end\", value, flags, band" : "*"
            func rows(_ database: String) throws -> [String] {
                let all = try server.query(database, "SELECT subject || '/' || \(dayColumn), \(columns) FROM \(table)")
                return PostgresStoreTests.normalized(all.filter { !pending.contains($0[0]) && !whole.contains($0[1]) }.map { Array($0.dropFirst()) })
            }
            let kept = try rows(db), clean = try rows(copy)
            compared += clean.count
            let detail = "\(Set(kept).subtracting(clean).sorted().prefix(2)) / \(Set(clean).subtracting(kept).sorted().prefix(2))"
            #expect(kept == clean, "\(what): \(table) differs from a clean reaggregate (\(kept.count) vs \(clean.count) rows): \(detail)")
        }
        #expect(compared > 0, "\(what): nothing compared")
        try server.query("postgres", "DROP DATABASE \(copy)")
    }

    /// Which transaction last wrote each band share (a day's shares are deleted and written again
    /// whenever its daily rows are).
    static func bandWriters(_ server: PostgresServer, _ db: String) throws -> [[String]] {
        try server.query(db, "SELECT subject, day, metric, band, xmin::text FROM daily_bands ORDER BY 1, 2, 3, 4")
    }

    @Test func newDaysComeFromTheStreamAndAReimportChangesNothing() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("append")
        let url = server.url("append"), dir = E2E.tempDir()
        let (first, second) = try PostgresRefreshByDayTests.parts(in: dir, split: Self.midnight)
        try Self.importRun([first], url, in: dir)
        // Every day of the second part is new and all its rows are: nothing is left to a refresh.
        #expect(try Self.importRun([second], url, in: dir).refreshRead == nil)
        #expect(try server.scalar("append", "SELECT count(*) FROM derived_pending") == "0")
        #expect(try server.scalar("append", "SELECT count(DISTINCT day) FROM daily_summaries") == "21")
        try Self.expectExact(server, "append", "two parts")

        // Again, and half a stored day again: rows all stored, nothing changes, nothing is written again.
        let lines = try String(contentsOf: second, encoding: .utf8).split(separator: "\n")
        let half = dir.appendingPathComponent("half-a-day.csv")
        try E2E.write(lines.prefix(3 + Self.day / 2).joined(separator: "\n") + "\n", to: half)
        let before = try Self.bandWriters(server, "append")
        for again in [second, half] {
            #expect(try Self.importRun([again], url, in: dir).refreshRead == nil, "\(again.lastPathComponent)")
            #expect(try server.scalar("append", "SELECT new_rows FROM imports WHERE path = '\(again.path)'") == "0")
        }
        #expect(try Self.bandWriters(server, "append") == before, "a re-import rewrote daily rows")
        try Self.expectExact(server, "append", "re-imports")
    }

    @Test func onlyContestedDaysAreRefreshed() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        // The parts share 2020-01-13: the first stored part of it, so the second's rows of it cannot
        // make it whole; the refresh reads that day (288 readings, 2 doses) and nothing else.
        try server.createDatabase("shared")
        let dir = E2E.tempDir()
        let (morning, evening) = try PostgresRefreshByDayTests.parts(in: dir)
        try Self.importRun([morning], server.url("shared"), in: dir)
        #expect(try Self.importRun([evening], server.url("shared"), in: dir).refreshRead == Self.records(onDays: 12...12))
        #expect(try server.scalar("shared", "SELECT n FROM daily_summaries WHERE day = '2020-01-13' AND metric = 'glucose'") == "288")
        try Self.expectExact(server, "shared", "a shared day")

        // A new day whose readings come twice in one run, the second time with other values: the
        // day is contested (which write is last is the store's to say), the other new days are not.
        try server.createDatabase("twice")
        let other = E2E.tempDir()
        let (first, second) = try PostgresRefreshByDayTests.parts(in: other, split: Self.midnight)
        let lines = try String(contentsOf: second, encoding: .utf8).split(separator: "\n").map(String.init)
        let corrected = other.appendingPathComponent("corrected.csv")
        try E2E.write((lines.prefix(3) + Self.corrected(lines, on: "2020-01-15")).joined(separator: "\n") + "\n", to: corrected)
        try Self.importRun([first], server.url("twice"), in: other)
        #expect(try Self.importRun([second, corrected], server.url("twice"), in: other).refreshRead == Self.records(onDays: 14...14))
        try Self.expectExact(server, "twice", "a day written twice in one run")

        // New days with a stored day corrected among them, in one file: copying the rows straight in
        // meets the stored keys and is undone; the upsert then contests that day alone.
        try server.createDatabase("amended")
        let stored = try String(contentsOf: first, encoding: .utf8).split(separator: "\n").map(String.init)
        let amended = other.appendingPathComponent("amended.csv")
        try E2E.write((lines + Self.corrected(stored, on: "2020-01-05")).joined(separator: "\n") + "\n", to: amended)
        try Self.importRun([first], server.url("amended"), in: other)
        #expect(try Self.importRun([amended], server.url("amended"), in: other).refreshRead == Self.records(onDays: 4...4))
        // Every row of the new days inserted, every reading of the stored day changed.
        #expect(try server.scalar("amended", "SELECT new_rows FROM imports WHERE path = '\(amended.path)'")
                == String(Self.records(onDays: 10...20) + Self.day))
        try Self.expectExact(server, "amended", "a stored day corrected among new days")
    }

    /// The readings of local day `day` (YYYY-MM-DD) among `lines`, each glucose value one higher.
    static func corrected(_ lines: [String], on day: String) -> [String] {
        let out = lines.filter { $0.contains(",\(day) ") && $0.contains(",EGV,") }.map { line -> String in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[7] = String((Int(cells[7]) ?? 0) + 1)  // the glucose value
            return cells.joined(separator: ",")
        }
        #expect(out.count == Self.day, "\(day)")
        return out
    }

    @Test func episodesKeepTheirDaysFromTheStream() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let dir = E2E.tempDir()
        let (first, second) = try PostgresRefreshByDayTests.parts(in: dir, split: Self.midnight)

        // An open illness episode stored from 2020-01-15 (by another writer, its day listed) flags every
        // later day with a row, which the appended stream knows nothing of: 2020-01-15 on is refreshed
        // (its readings, doses and the episode), 2020-01-11 to 14 come from the stream.
        try server.createDatabase("open")
        try Self.importRun([first], server.url("open"), in: dir)
        let start = CivilDateForTests.epoch(2020, 1, 15) + 43_200
        try server.query("open", """
            INSERT INTO events (subject, kind, subtype, source, start, "end", utc_offset, flags)
                VALUES ('default', 'episode', 'illness', 'health log', \(start), \(start), 0, 256);
            INSERT INTO derived_pending (subject, day) VALUES ('default', '2020-01-15')
            """)
        #expect(try Self.importRun([second], server.url("open"), in: dir).refreshRead == Self.records(onDays: 14...20) + 1)
        #expect(try server.scalar("open", "SELECT string_agg(day, ',' ORDER BY day) FROM daily_summaries WHERE illness = 1 AND metric = 'glucose'")
                == "2020-01-15,2020-01-16,2020-01-17,2020-01-18,2020-01-19,2020-01-20,2020-01-21")
        try Self.expectExact(server, "open", "an open episode")

        // An illness marker in the appended file counts on days the subject already has: the subject
        // is refreshed whole. Into an empty store the stream holds everything: nothing is refreshed.
        let marked = dir.appendingPathComponent("marked.csv")
        try E2E.write(try String(contentsOf: second, encoding: .utf8) + "9999,2020-01-16 10:00:00,Health,Illness,,,iOS G6,,,,,,,\n", to: marked)
        for (db, firstPart, refreshed) in [("marker", true, Self.records(onDays: 0...20) + 1), ("alone", false, nil as Int?)] {
            try server.createDatabase(db)
            if firstPart { try Self.importRun([first], server.url(db), in: dir) }
            #expect(try Self.importRun([marked], server.url(db), in: dir).refreshRead == refreshed, "\(db)")
            #expect(try server.scalar(db, "SELECT illness FROM daily_summaries WHERE day = '2020-01-16' AND metric = 'glucose'") == "1")
            try Self.expectExact(server, db, "an illness marker (\(db))")
        }
    }

    /// The append's last transaction fails (a trigger refuses to take days off `derived_pending`): the
    /// earlier transaction's readings stay, listed pending, and no derived row is out of date. The
    /// run again completes it; only the days the failed run stored are refreshed.
    @Test func anInterruptedAppendLeavesAConsistentStoreThatARerunCompletes() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("cut")
        let url = server.url("cut"), dir = E2E.tempDir()
        // Two days, then 105,024 readings: two transactions of the sink (100,000 rows each).
        let (first, second) = try PostgresRefreshByDayTests.parts(in: dir, rows: 105_600, split: 2 * Self.day)
        try Self.importRun([first], url, in: dir)
        try server.query("cut", """
            CREATE FUNCTION hp_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
            CREATE TRIGGER hp_refuse BEFORE DELETE ON derived_pending FOR EACH STATEMENT EXECUTE FUNCTION hp_refuse()
            """)
        let failed = try Self.importRun([second], url, in: dir, exitCode: 1)
        #expect(failed.stderr.contains("injected failure"), "\(failed.stderr)")
        let stored = Int(try server.scalar("cut", "SELECT count(*) FROM measurements")) ?? 0
        #expect(stored > 100_000 && stored < 105_600, "\(stored) readings after the failed run")
        #expect(try server.scalar("cut", "SELECT status FROM imports WHERE path = '\(second.path)'") == "failed")
        #expect(try server.scalar("cut", "SELECT count(*) > 300 FROM derived_pending") == "t")
        try server.query("cut", "DROP TRIGGER hp_refuse ON derived_pending")
        try Self.expectExact(server, "cut", "after the failed run")

        try server.query("cut", "CREATE TABLE hp_listed AS SELECT * FROM derived_pending")
        let rerun = try #require(try Self.importRun([second], url, in: dir).refreshRead)
        // The days the failed run stored were pending when the run began: the refresh reads them (all of
        // their rows, the re-run's too); the rest of the part was new.
        let listed = try server.scalar("cut", """
            SELECT (SELECT count(*) FROM measurements m JOIN hp_listed p
                      ON p.subject = m.subject AND p.day = to_char(to_timestamp(m.start + m.utc_offset) AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
                 + (SELECT count(*) FROM events e JOIN hp_listed p
                      ON p.subject = e.subject AND p.day = to_char(to_timestamp(e.start + e.utc_offset) AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
            """)
        #expect(String(rerun) == listed && rerun < 105_024, "\(rerun) readings re-read, \(listed) on the days listed")
        #expect(try server.scalar("cut", "SELECT count(*) FROM derived_pending") == "0")
        try Self.expectExact(server, "cut", "after the re-run")
    }
}
