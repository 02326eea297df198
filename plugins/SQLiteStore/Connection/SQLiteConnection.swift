import CSQLite
import Glibc

/// One open SQLite database. Owned by one thread at a time (a stage's thread), so by default it is
/// opened with SQLITE_OPEN_NOMUTEX and skips SQLite's per-call locking; pass `serialized: true`
/// for a connection shared between threads. `open` leases a kept one where the process keeps
/// the database's connections (`ConnectionPool`).
public final class SQLiteConnection {
    /// The sqlite3* handle, for callers that need the C API directly.
    public let handle: OpaquePointer
    public let path: String
    /// The open handle; it outlives this holder when the pool takes it back.
    let database: OpenDatabase
    /// Where this connection goes back to when its holder lets go (nil: closed instead).
    private let lease: ConnectionPool.Key?

    public init(path: String, readOnly: Bool = false, serialized: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        database = try Self.openDatabase(path: path, readOnly: readOnly, serialized: serialized,
                                         busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        handle = database.handle
        self.path = path
        lease = nil
    }

    private init(database: OpenDatabase, path: String, lease: ConnectionPool.Key) {
        self.database = database
        handle = database.handle
        self.path = path
        self.lease = lease
    }

    /// A connection to `path`: an idle kept one when this process keeps the database's connections
    /// (`ConnectionPool.keep`), else a new one that will be kept there after use; a new one
    /// closed after use otherwise.
    public static func open(path: String, readOnly: Bool = false) throws -> SQLiteConnection {
        guard let key = ConnectionPool.key(path, readOnly: readOnly) else {
            return try SQLiteConnection(path: path, readOnly: readOnly)
        }
        let database = try ConnectionPool.take(key)
            ?? openDatabase(path: path, readOnly: readOnly, serialized: false, busyTimeoutMilliseconds: 5_000)
        return SQLiteConnection(database: database, path: path, lease: key)
    }

    private static func openDatabase(path: String, readOnly: Bool, serialized: Bool,
                                     busyTimeoutMilliseconds: Int32) throws -> OpenDatabase {
        _ = processSettings
        var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        flags |= serialized ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX
        var name = path
        if readOnly, Self.cannotKeepSharedMemory(path) {
            // A WAL database whose folder this user cannot write, without its -shm file: SQLite cannot
            // create the shared-memory index and refuses even to read. Nobody can be writing it through
            // that folder without the -shm, so it is opened as immutable (read as the file stands).
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
            flags |= SQLITE_OPEN_URI
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            var error = SQLiteError(resultCode: rc, db: db, sql: nil)
            error.message += " (\(path))"
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        // Another process (a reader, a second import) may hold the lock briefly: wait, don't fail.
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        return OpenDatabase(handle: db, path: path)
    }

    /// SQLite's process-wide settings, made before the first connection opens.
    private static let processSettings: Void = { _ = healthpipe_sqlite_without_memory_statistics() }()

    /// True when the database's folder cannot take a new `-shm` file and none exists.
    static func cannotKeepSharedMemory(_ path: String) -> Bool {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return false }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return access(folder.isEmpty ? "/" : folder, W_OK) != 0 && access(path + "-shm", F_OK) != 0
    }

    /// A path as the path part of a `file:` URI (`%`, `?`, `#` and non-ASCII bytes escaped).
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for c in path.utf8 {
            switch c {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...: out += "%" + String(c, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(Unicode.Scalar(c))
            }
        }
        return out
    }

    deinit {
        // Every statement is gone (each holds its connection): the handle is idle.
        if let lease { ConnectionPool.giveBack(database, key: lease) }
    }

    /// A statement this connection made is no longer used: kept for the next holder of a leased
    /// connection, else finalized.
    func finished(_ stmt: OpaquePointer, sql: String) {
        if lease != nil { database.keep(stmt, sql: sql) } else { sqlite3_finalize(stmt) }
    }

    /// Runs one or more statements that return no rows the caller needs (DDL, pragmas, BEGIN/COMMIT).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            var error = SQLiteError(resultCode: rc, db: handle, sql: sql)
            if let message {
                error.message = String(cString: message)
                sqlite3_free(message)
            }
            throw error
        }
    }

    /// Compiles one statement. `persistent` hints SQLite that it will be reused many times.
    public func prepare(_ sql: String, persistent: Bool = false) throws -> Statement {
        if lease != nil, let kept = database.reuse(sql) { return Statement(handle: kept, connection: self, sql: sql) }
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw SQLiteError(resultCode: rc == SQLITE_OK ? SQLITE_MISUSE : rc, db: handle, sql: sql)
        }
        return Statement(handle: stmt, connection: self, sql: sql)
    }

    /// The first column of the first row as an integer (nil when there is no row or it is NULL).
    public func scalarInt(_ sql: String) throws -> Int64? {
        let stmt = try prepare(sql)
        guard try stmt.step(), !stmt.isNull(0) else { return nil }
        return stmt.int(0)
    }

    /// Rows inserted, updated or deleted by the most recent statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// False while a transaction is open (SQLite rolls back by itself on some errors, e.g. SQLITE_FULL).
    public var isInTransaction: Bool { database.isInTransaction }

    /// Runs `body` in a BEGIN IMMEDIATE transaction: commits on return, rolls back on a throw.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
