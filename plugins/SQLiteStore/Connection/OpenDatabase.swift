import CSQLite
import Glibc

/// An open sqlite3 handle and what is kept with it between holders (`ConnectionPool`): the
/// statements its holders finished with, by SQL, and whether the schema was checked and the
/// pragmas set. Closed when the last reference goes. One holder at a time uses it (the pool's lease).
final class OpenDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    /// The file's device and inode when it was opened (nil: no file, e.g. `:memory:`).
    let identity: Identity?
    /// Set by `SQLiteSchema.open` once it has configured and migrated this connection.
    var configured = false
    private var finished: [String: [OpaquePointer]] = [:]
    private var finishedCount = 0
    /// Finished statements kept beyond which one is finalized (SQL built with values inlined must
    /// not grow the cache without bound).
    static let statementsKept = 256

    struct Identity: Equatable {
        let device: UInt64, inode: UInt64
    }

    init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.identity = Self.identity(of: path)
    }

    static func identity(of path: String) -> Identity? {
        var s = stat()
        return stat(path, &s) == 0 ? Identity(device: UInt64(s.st_dev), inode: UInt64(s.st_ino)) : nil
    }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// A statement compiled from `sql` that an earlier holder finished with.
    func reuse(_ sql: String) -> OpaquePointer? {
        guard let stmt = finished[sql]?.popLast() else { return nil }
        finishedCount -= 1
        return stmt
    }

    /// Keeps a statement its holder finished with, reset and unbound, for the next `reuse`.
    func keep(_ stmt: OpaquePointer, sql: String) {
        guard finishedCount < Self.statementsKept else { sqlite3_finalize(stmt); return }
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        finished[sql, default: []].append(stmt)
        finishedCount += 1
    }

    deinit {
        for stmts in finished.values { for s in stmts { sqlite3_finalize(s) } }
        // close_v2 defers the close until any statement still alive is finalized.
        sqlite3_close_v2(handle)
    }
}
