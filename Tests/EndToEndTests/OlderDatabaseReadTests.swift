import Foundation
import HealthPipeTestSupport
import Testing

/// Every command that only reads a database works on one an older release wrote. Readers open it
/// read-only and never migrate it, so every query must do without what later schema versions added
/// (`page`, `serve` and `chart` once failed with "no such column: total" on schema 11; `alerts list`
/// with "no such table: alerts" before v4). This release's store (`OlderSchemaStores`) is copied into
/// a database at each older schema version — every column that version has — and each read command
/// runs on it. The app and the API: OlderDatabaseServeTests.
@Suite struct OlderDatabaseReadTests {
    static let utc = ["TZ": "UTC"]
    static let day = OlderSchemaStores.day

    /// This release's store, written once for every version's copy.
    static let current: Result<URL, any Error> = Result {
        let db = E2E.tempDir().appendingPathComponent("current.sqlite")
        try OlderSchemaStores.writeCurrent(at: db) { args in
            let r = try E2E.run(args, env: utc)
            return (r.code, r.stderr)
        }
        return db
    }

    /// Every read command, with the arguments that make it read something of each kind.
    static func readCommands(_ out: URL) -> [[String]] {
        [["chart", "day", "--date", day], ["chart", "day", "--date", day, "--svg", out.appendingPathComponent("d.svg").path],
         ["chart", "agp"], ["chart", "days"], ["chart", "history"], ["chart", "report-values"], ["chart", "report-days"],
         ["page", "--output", out.appendingPathComponent("p.html").path], ["days"], ["days", "--favourites"], ["metrics"],
         ["history", "--json"], ["reports", "list"], ["entries", "list"], ["alerts", "list"], ["person"]]
    }

    @Test(arguments: OlderSchemaStores.versions) func everyReadCommandWorksOnADatabaseOfAnOlderVersion(version: Int32) throws {
        let current = try Self.current.get()
        let db = E2E.tempDir().appendingPathComponent("v\(version).sqlite")
        try OlderSchemaStores.copy(current, atVersion: version, to: db)
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
        for args in [["chart", "day", "--date", Self.day], ["chart", "agp"]] {
            let older = try E2E.run(args + ["--db", db.path], env: Self.utc), now = try E2E.run(args + ["--db", current.path], env: Self.utc)
            #expect(older.stdout == now.stdout, "v\(version): healthpipe \(args.joined(separator: " ")) differs from this release's")
        }
        // Reading never migrated it.
        #expect(E2E.scalar(db, "PRAGMA user_version") == String(version))
    }
}
