import CSQLite
import Foundation
import Testing

/// Another program's SQLite file given as `--db` is refused in one line naming it, and not written to.
@Suite struct ForeignDatabaseTests {
    static let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path

    /// An SQLite file made by "another program": its own tables (one named like HealthPipe's).
    func foreignDatabase(_ sql: String) throws -> URL {
        let url = E2E.tempDir().appendingPathComponent("other.db")
        var handle: OpaquePointer?
        guard sqlite3_open(url.path, &handle) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
        defer { sqlite3_close(handle) }
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw CocoaError(.fileWriteUnknown) }
        return url
    }

    @Test(arguments: [
        "CREATE TABLE measurements (id INTEGER PRIMARY KEY, foo TEXT); CREATE TABLE notes (x); INSERT INTO notes VALUES (1);",
        // A version set by the other program does not make it HealthPipe's.
        "CREATE TABLE notes (x); INSERT INTO notes VALUES (1); PRAGMA user_version = 3;",
    ])
    func anotherProgramsDatabaseIsRefusedInOneLineAndUntouched(sql: String) throws {
        let db = try foreignDatabase(sql)
        let before = try Data(contentsOf: db)
        let r = try E2E.run(["import", Self.clarity, "--db", db.path, "--timezone", "UTC"])
        #expect(r.code == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr.prefix(400))")
        #expect(r.stderr.contains(db.path) && r.stderr.contains("not a HealthPipe database") && r.stderr.contains("notes"))
        #expect(try Data(contentsOf: db) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: db.deletingLastPathComponent().path)
        #expect(left == ["other.db"])
    }

    @Test func anEmptySQLiteFileBecomesAHealthPipeDatabase() throws {
        let db = try foreignDatabase("PRAGMA user_version = 0;")
        let r = try E2E.run(["import", Self.clarity, "--db", db.path, "--timezone", "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.count(db, "measurements") > 0)
    }
}
