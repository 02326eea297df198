import Foundation
import HealthPipeTestSupport
@testable import SQLiteStore
import Testing

/// A kept read connection (serve's reading threads) must read like a new one: every commit made
/// after it was opened, and the file now at its path when the old one was replaced.
@Suite struct ReadConnectionsTests {
    func count(_ path: String) throws -> Int64? {
        try ReadConnections.open(path).scalarInt("SELECT count(*) FROM t")
    }

    @Test func aKeptConnectionSeesLaterCommitsAndAReplacedFile() throws {
        let dir = try TempDirectory()
        let path = dir.path("kept.sqlite")
        let writer = try SQLiteConnection(path: path)
        try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        try ReadConnections.keeping {
            let first = try ReadConnections.open(path)
            #expect(try count(path) == 1)
            #expect(try ReadConnections.open(path) === first, "not kept")
            try writer.execute("INSERT INTO t VALUES (2)")
            #expect(try count(path) == 2)

            // Another database moved onto a path (rollback journals: a WAL file left beside a
            // replaced database would be read into any new connection too): the new file is read.
            let moved = dir.path("moved.sqlite"), other = dir.path("other.sqlite")
            try SQLiteConnection(path: moved).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
            let before = try ReadConnections.open(moved)
            #expect(try count(moved) == 1)
            try SQLiteConnection(path: other).execute("CREATE TABLE t (x); INSERT INTO t VALUES (7), (8), (9)")
            #expect(rename(other, moved) == 0)
            #expect(try count(moved) == 3)
            #expect(try ReadConnections.open(moved) !== before)
        }
        // Outside `keeping`, a new connection each time.
        #expect(try ReadConnections.open(path) !== (try ReadConnections.open(path)))
    }
}
