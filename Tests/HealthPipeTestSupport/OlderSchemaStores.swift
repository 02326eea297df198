import Foundation
import SQLiteStore

/// This release's store holding every kind of data a reader shows — a pump with CGM (readings, doses,
/// meals, alarms), health reports, Apple Health steps, a toothbrush session, a typed dose and a
/// favourite day — and copies of it at each older schema version, for the tests that every reader
/// (commands, the app, the API) works on a database an older release wrote.
public enum OlderSchemaStores {
    /// The schema versions before this release's.
    public static let versions: [Int32] = SQLiteSchema.migrator.migrations.map(\.version).filter { $0 < SQLiteSchema.version }

    /// A day of the pump file with readings, doses, meals and alarms.
    public static let day = "2013-08-08"

    /// Writes this release's store at `db` through `healthpipe` (`run` runs it with these arguments and
    /// returns its exit status and standard error).
    public static func writeCurrent(at db: URL, run: ([String]) throws -> (code: Int32, stderr: String)) throws {
        // Each with the exit status it ends with (the capture has samples the stream quarantines: 3).
        let runs: [(args: [String], code: Int32)] = [
            (["import", Repository.path("Tests/Fixtures/real/carelink/carelink-en-revel523-sensor-v101.csv"),
              "--timezone", "America/Los_Angeles", "--quiet"], 0),
            (["import", Repository.path("samples/health-reports/health_log.json"), "--quiet"], 0),
            (["import", Repository.path("samples/apple-health/apple-health-parser_tests_export.xml"), "--quiet"], 0),
            (["stream", "--replay", Repository.path("samples/imu/brushing_stream_tms.csv"), "--start", "\(day)T07:30:00Z"], 3),
            (["add", "insulin", "2", "--at", "\(day) 12:00"], 0),
            (["favourite", "add", day, "--note", "a good day"], 0),
        ]
        for (args, code) in runs {
            let r = try run(args + ["--db", db.path])
            guard r.code == code else { throw Failure(description: "healthpipe \(args.joined(separator: " ")) → \(r.code), not \(code): \(r.stderr)") }
        }
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// A database at schema `version` at `path`, holding as much of `current` as that version has columns for.
    public static func copy(_ current: URL, atVersion version: Int32, to path: URL) throws {
        let older = Migrator(migrations: SQLiteSchema.migrator.migrations.filter { $0.version <= version })
        let db = try SQLiteConnection(path: path.path)
        _ = try older.migrate(db)
        try db.execute("ATTACH DATABASE '\(current.path.replacingOccurrences(of: "'", with: "''"))' AS now")
        for table in try texts(db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            let had = Set(try texts(db, "SELECT name FROM pragma_table_info('\(table)', 'now')"))
            let list = try texts(db, "SELECT name FROM pragma_table_info('\(table)', 'main')").filter(had.contains)
                .map { "\"\($0)\"" }.joined(separator: ", ")
            guard !list.isEmpty else { continue }
            // A column an older version required and this one dropped leaves that table empty.
            try? db.execute("INSERT OR IGNORE INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM now.\"\(table)\"")
        }
        try db.execute("DETACH DATABASE now")
    }

    private static func texts(_ db: SQLiteConnection, _ sql: String) throws -> [String] {
        let s = try db.prepare(sql)
        var out: [String] = []
        while try s.step() { out.append(s.text(0) ?? "") }
        return out
    }
}
