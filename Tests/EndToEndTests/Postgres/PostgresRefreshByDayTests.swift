import Foundation
import Testing

/// The refresh after an import into PostgreSQL works by day, as SQLite's (docs/schema.md, "The
/// derived-data rule"): a file imported as two runs whose parts share a day gives the derived rows of
/// SQLite after the same two runs and of one clean `reaggregate`, and the second run's refresh
/// rewrites neither the daily rows nor the grid of the days it did not touch — with the import
/// defaults, with a grid step that reads across midnight, and with steps that read whole histories.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresRefreshByDayTests {
    /// Readings every 5 minutes from 2020-01-01 UTC with a dose every 10 hours; the first part ends
    /// at 03:35 on 2020-01-13, the second begins there: that day is in both files.
    static let rows = 6_000, split = 3_500
    static let sharedDay = "2020-01-13"

    static let derivedTables = ["measurements", "daily_summaries", "daily_bands", "glucose_metrics", "glucose_agp", "forecasts", "alerts"]

    /// The generated export of `rows` readings as two files, the second from reading number `split` on.
    static func parts(in dir: URL, rows: Int = rows, split: Int = split) throws -> (URL, URL) {
        let lines = try String(contentsOf: CrashConsistencyTests.generate(rows: rows, into: dir), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.prefix(3), data = lines.dropFirst(3).filter { !$0.isEmpty }
        // Each data line after the first `split` readings (a dose follows its reading on the next line).
        let cut = data.firstIndex { $0.hasPrefix("\(split + 3),") && $0.contains(",EGV,") }!
        let first = dir.appendingPathComponent("morning.csv"), second = dir.appendingPathComponent("evening.csv")
        try E2E.write((header + data[..<cut]).joined(separator: "\n") + "\n", to: first)
        try E2E.write((header + data[cut...]).joined(separator: "\n") + "\n", to: second)
        return (first, second)
    }

    /// Row identity → the transaction that last wrote it (xmin), for rows of days before `day`.
    static func writers(_ server: PostgresServer, _ database: String, before day: String) throws -> [String: String] {
        let limit = CivilDateForTests.epoch(2020, 1, Int(day.suffix(2))!)
        var out: [String: String] = [:]
        for row in try server.query(database, "SELECT subject || '/' || day || '/' || metric, xmin::text FROM daily_summaries WHERE day < '\(day)'") {
            out["daily " + row[0]] = row[1]
        }
        for row in try server.query(database, """
            SELECT s.metric || '/' || s.source || '/' || r.start, r.xmin::text FROM measurement_rows r
              JOIN measurement_series s ON s.id = r.series WHERE r.flags & 128 != 0 AND r.start + r.utc_offset < \(limit)
            """) {
            out["grid " + row[0]] = row[1]
        }
        return out
    }

    /// `settings`: the store's steps before the second run (nil: the import defaults); `untouchedBefore`:
    /// the first day whose rows the second run's refresh may rewrite.
    func check(_ name: String, settings: String?, untouchedBefore: String, grid: Bool) throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase(name)
        let url = server.url(name)
        let dir = E2E.tempDir()
        let sqlite = dir.appendingPathComponent("ref.sqlite")
        let (first, second) = try Self.parts(in: dir)
        for db in [url, sqlite.path] {
            let r = try E2E.run(["import", first.path, "--db", db, "--timezone", "UTC"], cwd: dir)
            #expect(r.code == 0, "\(name) first run: \(r.stderr)")
            if let settings {
                let s = try E2E.run(["reaggregate", "--db", db, "--config", settings, "--timezone", "UTC"], cwd: dir)
                #expect(s.code == 0, "\(name) settings: \(s.stderr)")
            }
        }
        let before = try Self.writers(server, name, before: untouchedBefore)
        #expect(before.keys.contains { $0.hasPrefix("daily ") } && (!grid || before.keys.contains { $0.hasPrefix("grid ") }),
                "\(name): no rows of untouched days to watch")
        for db in [url, sqlite.path] {
            let r = try E2E.run(["import", second.path, "--db", db, "--timezone", "UTC"], cwd: dir)
            #expect(r.code == 0, "\(name) second run: \(r.stderr)")
        }
        #expect(try server.scalar(name, "SELECT count(*) FROM derived_pending") == "0")
        // The shared day holds the readings of both files.
        #expect(try server.scalar(name, "SELECT n FROM daily_summaries WHERE day = '\(Self.sharedDay)' AND metric = 'glucose'") == "288")

        // Untouched days: not one of their rows rewritten.
        let after = try Self.writers(server, name, before: untouchedBefore)
        let rewritten = before.filter { after[$0.key] != $0.value }.keys.sorted()
        #expect(rewritten.isEmpty, "\(name): \(rewritten.count) rows of untouched days rewritten, e.g. \(rewritten.prefix(3))")

        let imported = try PostgresStoreTests.snapshot(server, name)
        PostgresStoreTests.expectEqual(imported, PostgresStoreTests.snapshot(sqlite: sqlite), "\(name): two runs vs SQLite")
        let r = try E2E.run(["reaggregate", "--db", url, "--timezone", "UTC"], cwd: dir)
        #expect(r.code == 0, "\(name) reaggregate: \(r.stderr)")
        let clean = try PostgresStoreTests.snapshot(server, name)
        for t in Self.derivedTables {
            let extra = Set(imported[t] ?? []).subtracting(clean[t] ?? []).sorted().prefix(2)
            #expect(imported[t] == clean[t],
                    "\(name): \(t) after two runs differs from a clean reaggregate (\(imported[t]?.count ?? 0) vs \(clean[t]?.count ?? 0) rows): \(extra)")
        }
    }

    @Test func importDefaults() throws {
        try check("defaults", settings: nil, untouchedBefore: Self.sharedDay, grid: false)
    }

    /// The grid reads 45 minutes across midnight: the refresh reads the day before the shared one and
    /// rewrites its grid, nothing earlier.
    @Test func aGridStepReadsTheDayBefore() throws {
        let dir = E2E.tempDir()
        let settings = dir.appendingPathComponent("grid.yml")
        try E2E.write("resample: { step_minutes: 15 }\nclassify: {}\ndaily: {}\n", to: settings)
        try check("grid", settings: settings.path, untouchedBefore: "2020-01-12", grid: true)
    }

    /// Forecasts and alerts read whole histories: they are replaced whole, the daily rows of other days are not.
    @Test func stepsThatReadWholeHistories() throws {
        try check("whole", settings: E2E.samples.appendingPathComponent("settings/reaggregate.yml").path,
                  untouchedBefore: Self.sharedDay, grid: false)
    }
}
