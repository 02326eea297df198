import CSQLite
import Foundation
import HealthPipeTestSupport
@testable import SQLiteStore
import Testing

/// A kept connection (serve's) must behave like a new one: it sees every commit made since it was
/// opened, it is never handed to two holders, the file now at its path is the one read, a holder
/// that left a transaction open does not pass it on, and a reused statement carries no old bindings.
@Suite struct ConnectionPoolTests {
    func count(_ path: String) throws -> Int64? {
        try SQLiteConnection.open(path: path, readOnly: true).scalarInt("SELECT count(*) FROM t")
    }

    func database(_ dir: TempDirectory, _ name: String, rows: Int = 1) throws -> String {
        let path = dir.path(name)
        let values = (1...rows).map { "(\($0))" }.joined(separator: ", ")
        try SQLiteConnection(path: path).execute("PRAGMA journal_mode=WAL; CREATE TABLE t (x); INSERT INTO t VALUES \(values)")
        return path
    }

    @Test func aKeptConnectionIsReusedAndSeesLaterCommits() throws {
        let dir = try TempDirectory()
        let path = try database(dir, "kept.sqlite")
        ConnectionPool.keep(path)
        defer { ConnectionPool.stopKeeping(path) }
        // A TEMP table lives only as long as its connection: seeing it again proves the reuse
        // (comparing handle addresses would not: a freed one may be allocated again).
        try SQLiteConnection.open(path: path).execute("CREATE TEMP TABLE marker (x)")
        #expect(try SQLiteConnection.open(path: path).scalarInt("SELECT count(*) FROM temp.marker") == 0, "not kept")
        #expect(try count(path) == 1)
        try SQLiteConnection(path: path).execute("INSERT INTO t VALUES (2)")
        #expect(try count(path) == 2)
        // The same path spelt another way is the same database.
        #expect(try SQLiteConnection.open(path: dir.path(".") + "/./kept.sqlite").scalarInt("SELECT count(*) FROM temp.marker") == 0)
    }

    @Test func twoHoldersNeverShareAConnection() throws {
        let dir = try TempDirectory()
        let path = try database(dir, "two.sqlite")
        ConnectionPool.keep(path)
        defer { ConnectionPool.stopKeeping(path) }
        let a = try SQLiteConnection.open(path: path)
        let b = try SQLiteConnection.open(path: path)
        #expect(a.handle != b.handle)
        // Writable and read-only connections are kept apart.
        #expect(try SQLiteConnection.open(path: path, readOnly: true).handle != a.handle)
    }

    @Test func aStatementComesBackWithoutItsBindings() throws {
        let dir = try TempDirectory()
        let path = try database(dir, "stmt.sqlite")
        ConnectionPool.keep(path)
        defer { ConnectionPool.stopKeeping(path) }
        let sql = "SELECT count(*) FROM t WHERE x = ?1"
        do {
            let db = try SQLiteConnection.open(path: path)
            let stmt = try db.prepare(sql)
            try stmt.bindInt(1, 1)
            #expect(try stmt.step() && stmt.int(0) == 1)
        }
        let db = try SQLiteConnection.open(path: path)
        let again = try db.prepare(sql)
        // A statement's run count starts at 0 when it is compiled: 1 is the one run above.
        #expect(sqlite3_stmt_status(again.handle, SQLITE_STMTSTATUS_RUN, 0) == 1, "not reused")
        #expect(sqlite3_stmt_busy(again.handle) == 0, "not reset")
        // The old binding is gone: running without binding is the unbound-parameter error.
        #expect(throws: SQLiteError.self) { try again.step() }
    }

    @Test func aConnectionLeftInATransactionIsNotKept() throws {
        let dir = try TempDirectory()
        let path = try database(dir, "open.sqlite")
        ConnectionPool.keep(path)
        defer { ConnectionPool.stopKeeping(path) }
        do {
            let db = try SQLiteConnection.open(path: path)
            try db.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (5)")
        }
        let next = try SQLiteConnection.open(path: path)
        #expect(!next.isInTransaction, "handed on inside its transaction")
        #expect(try next.scalarInt("SELECT count(*) FROM t") == 1, "the abandoned insert was rolled back")
    }

    @Test func aReplacedFileIsReadAndNothingIsKeptUnasked() throws {
        let dir = try TempDirectory()
        // Rollback journals: a WAL file left beside a replaced database would be read into any new connection too.
        let moved = dir.path("moved.sqlite"), other = dir.path("other.sqlite")
        try SQLiteConnection(path: moved).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        ConnectionPool.keep(moved)
        defer { ConnectionPool.stopKeeping(moved) }
        #expect(try count(moved) == 1)
        try SQLiteConnection(path: other).execute("CREATE TABLE t (x); INSERT INTO t VALUES (7), (8), (9)")
        #expect(rename(other, moved) == 0)
        #expect(try count(moved) == 3, "the replaced file was read")

        // A path nobody keeps is not pooled (a new connection each time, closed after use), nor is
        // a path once it is no longer kept.
        #expect(ConnectionPool.key(try database(dir, "free.sqlite"), readOnly: false) == nil)
        ConnectionPool.stopKeeping(moved)
        #expect(ConnectionPool.key(moved, readOnly: true) == nil)
    }
}
