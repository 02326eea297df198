import Foundation
import SQLiteStore
import Testing

/// Every command that only reads a database works on one an older release wrote. Readers open it
/// read-only and never migrate it, so every query must do without what later schema versions added
/// (`page`, `serve` and `chart` once failed with "no such column: total" on schema 11). This
/// release's store of a pump with CGM, health reports, Apple Health steps, a toothbrush session and
/// typed entries is copied into a database at each older schema version — every column that version
/// has — and each read command runs on it.
@Suite struct OlderDatabaseReadTests {
    static let utc = ["TZ": "UTC"]

    /// The schema versions before this release's.
    static let versions: [Int32] = SQLiteSchema.migrator.migrations.map(\.version).filter { $0 < SQLiteSchema.version }

    /// This release's store, written once for every version's copy.
    static let current: URL? = try? writeCurrentStore()

    static func writeCurrentStore() throws -> URL {
        let db = E2E.tempDir().appendingPathComponent("current.sqlite")
        let runs: [[String]] = [
            ["import", E2E.fixtures.appendingPathComponent("real/carelink/carelink-en-revel523-sensor-v101.csv").path,
             "--timezone", "America/Los_Angeles", "--quiet"],
            ["import", E2E.samples.appendingPathComponent("health-reports/health_log.json").path, "--quiet"],
            ["import", E2E.samples.appendingPathComponent("apple-health/apple-health-parser_tests_export.xml").path, "--quiet"],
            ["stream", "--replay", E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path,
             "--start", "2013-08-08T07:30:00Z"],
            ["add", "insulin", "2", "--at", "2013-08-08 12:00"],
            ["favourite", "add", "2013-08-08", "--note", "a good day"],
        ]
        for args in runs {
            let r = try E2E.run(args + ["--db", db.path], env: utc)
            guard r.code == 0 || r.code == 3 else { throw Failure(message: "\(args.joined(separator: " ")): \(r.stderr)") }
        }
        return db
    }

    struct Failure: Error { var message: String }

    /// A database at schema `version` holding as much of `current` as that version has columns for.
    static func copy(_ current: URL, atVersion version: Int32) throws -> URL {
        let db = E2E.tempDir().appendingPathComponent("v\(version).sqlite")
        let older = Migrator(migrations: SQLiteSchema.migrator.migrations.filter { $0.version <= version })
        let connection = try SQLiteConnection(path: db.path)
        _ = try older.migrate(connection)
        try connection.execute("ATTACH DATABASE '\(current.path)' AS now")
        for table in E2E.query(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map({ $0[0] }) {
            let had = Set(E2E.query(current, "SELECT name FROM pragma_table_info('\(table)')").map { $0[0] })
            let columns = E2E.query(db, "SELECT name FROM pragma_table_info('\(table)')").map { $0[0] }.filter(had.contains)
            guard !columns.isEmpty else { continue }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            // A column an older version required and this one dropped leaves that table empty.
            try? connection.execute("INSERT OR IGNORE INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM now.\"\(table)\"")
        }
        try connection.execute("DETACH DATABASE now")
        return db
    }

    /// Every read command, with the arguments that make it read something of each kind.
    static func readCommands(_ out: URL) -> [[String]] {
        [["chart", "day", "--date", "2013-08-08"], ["chart", "day", "--date", "2013-08-08", "--svg", out.appendingPathComponent("d.svg").path],
         ["chart", "agp"], ["chart", "days"], ["chart", "history"], ["chart", "report-values"], ["chart", "report-days"],
         ["page", "--output", out.appendingPathComponent("p.html").path], ["days"], ["days", "--favourites"], ["metrics"],
         ["history", "--json"], ["reports", "list"], ["entries", "list"], ["alerts", "list"], ["person"]]
    }

    @Test(arguments: versions) func everyReadCommandWorksOnADatabaseOfAnOlderVersion(version: Int32) throws {
        let current = try #require(Self.current, "this release's store could not be written")
        let db = try Self.copy(current, atVersion: version)
        #expect(E2E.scalar(db, "PRAGMA user_version") == String(version))
        let out = E2E.tempDir()
        let reportsExist = E2E.scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'reports'") == "1"
        for args in Self.readCommands(out) {
            let r = try E2E.run(args + ["--db", db.path], env: Self.utc)
            let shown = "v\(version): healthpipe \(args.joined(separator: " ")) → \(r.code): \(r.stderr)"
            if !reportsExist && args.starts(with: ["chart"]) && args[1].hasPrefix("report") {
                // Before the health log, such a database holds no reports: said as for any database without them.
                #expect(r.code == 1 && r.stderr == "\(db.path): no health reports\n", "\(shown)")
            } else {
                #expect(r.code == 0 && (r.stderr.isEmpty || args[0] == "page" && r.stderr.hasPrefix("wrote ")), "\(shown)")
            }
        }
        // The glucose views read the same readings in every version.
        for args in [["chart", "day", "--date", "2013-08-08"], ["chart", "agp"]] {
            let older = try E2E.run(args + ["--db", db.path], env: Self.utc), now = try E2E.run(args + ["--db", current.path], env: Self.utc)
            #expect(older.stdout == now.stdout, "v\(version): healthpipe \(args.joined(separator: " ")) differs from this release's")
        }
        // Reading never migrated it.
        #expect(E2E.scalar(db, "PRAGMA user_version") == String(version))
    }
}
