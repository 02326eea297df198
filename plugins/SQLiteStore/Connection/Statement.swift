import CSQLite

/// A prepared statement: bind by 1-based index, step, reset, read columns by 0-based index.
/// Made to be prepared once and reused for millions of rows, so binds are thin wrappers.
public final class Statement {
    public let handle: OpaquePointer
    public let sql: String
    /// Keeps the connection open while this statement lives.
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { connection.finished(handle, sql: sql) }

    // Until the first step, which parameters were bound: a statement that runs with one never bound
    // is an error naming the SQL (a reset statement keeps its old bindings, so a forgotten bind
    // would silently reuse the previous row's value). Checked once; free afterwards.
    private var bindingChecked = false
    private var bound = Set<Int32>()

    @inline(__always)
    private func note(_ index: Int32) { if !bindingChecked { bound.insert(index) } }

    private func checkBindings() throws {
        bindingChecked = true
        let expected = sqlite3_bind_parameter_count(handle)
        let missing = (1...max(1, expected)).filter { $0 <= expected && !bound.contains($0) }
        bound = []
        guard missing.isEmpty else {
            throw SQLiteError(code: SQLITE_RANGE, message: "the statement has \(expected) parameters; "
                              + "\(missing.map(String.init).joined(separator: ", ")) never bound before it ran", sql: sql)
        }
    }

    // MARK: Binding (1-based)

    @inline(__always)
    public func bindInt(_ index: Int32, _ value: Int64) throws {
        note(index)
        try check(sqlite3_bind_int64(handle, index, value))
    }

    @inline(__always)
    public func bindDouble(_ index: Int32, _ value: Double) throws {
        note(index)
        try check(sqlite3_bind_double(handle, index, value))
    }

    @inline(__always)
    public func bindNull(_ index: Int32) throws {
        note(index)
        try check(sqlite3_bind_null(handle, index))
    }

    @inline(__always)
    public func bindDouble(_ index: Int32, _ value: Double?) throws {
        if let value { try bindDouble(index, value) } else { try bindNull(index) }
    }

    /// Binds a copy of `value` (SQLITE_TRANSIENT): for text that does not outlive the call.
    public func bindText(_ index: Int32, _ value: String) throws {
        var value = value
        try value.withUTF8 { utf8 in
            // A zero-length buffer may have no address; SQLite reads NULL as SQL NULL, "" as text.
            let base = utf8.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
            note(index)
            try check(sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count),
                                        healthpipe_sqlite_transient()))
        }
    }

    public func bindText(_ index: Int32, _ value: String?) throws {
        if let value { try bindText(index, value) } else { try bindNull(index) }
    }

    /// Binds text without copying it (SQLITE_STATIC): the caller guarantees `bytes` stays valid and
    /// unchanged until the statement is rebound, reset-and-rebound or finalized.
    @inline(__always)
    public func bindStaticText(_ index: Int32, _ bytes: UnsafePointer<UInt8>, count: Int32) throws {
        note(index)
        try check(sqlite3_bind_text(handle, index, UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self), count, nil))
    }

    // MARK: Execution

    /// Advances to the next row: true when a row is available, false when the statement is done.
    @inline(__always)
    @discardableResult
    public func step() throws -> Bool {
        if !bindingChecked { try checkBindings() }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(resultCode: rc, db: sqlite3_db_handle(handle), sql: sql)
    }

    /// Makes the statement runnable again; bindings are kept.
    @inline(__always)
    public func reset() {
        // reset repeats the last step's error, which step() has already thrown.
        sqlite3_reset(handle)
    }

    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Steps to completion and resets: for INSERT/UPDATE/DELETE.
    @inline(__always)
    public func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    // MARK: Columns (0-based)

    public var columnCount: Int32 { sqlite3_column_count(handle) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    /// The column's text as UTF-8 bytes, valid only inside `body` (nil: NULL).
    public func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        guard let p = sqlite3_column_text(handle, column) else { return body(nil) }
        return body(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, column))))
    }

    public func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    @inline(__always)
    private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw SQLiteError(resultCode: rc, db: sqlite3_db_handle(handle), sql: sql) }
    }
}
