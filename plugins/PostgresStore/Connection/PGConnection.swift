import CLibPQ
import Foundation

/// One libpq connection, used by one thread at a time (the engine is synchronous, and so is libpq's
/// blocking API; the import hands its connection to a writer thread and waits for it before using it
/// again). Statements run in text format; COPY streams rows in PostgreSQL's text format.
/// Every error names the store as `PostgresURL.shown` says it and never carries a password.
public final class PGConnection: @unchecked Sendable {
    public let url: PostgresURL
    private let handle: OpaquePointer

    public init(_ url: PostgresURL) throws {
        self.url = url
        // Engines may start us with an empty environment: no client encoding from a locale then.
        var keys = ["dbname", "client_encoding", "application_name", "connect_timeout"]
        var values = [url.conninfo, "UTF8", "healthpipe", "20"]
        if url.conninfo.isEmpty { keys.removeFirst(); values.removeFirst() }
        let conn = Self.withCStrings(keys) { k in Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let conn else { throw PGError(message: "\(url.shown): cannot allocate a PostgreSQL connection") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let reason = url.redact(Self.text(PQerrorMessage(conn))).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(conn)
            throw PGError(message: "\(url.shown): cannot connect: \(reason)")
        }
        // Only now: a throwing initializer that has set every property runs deinit, which would finish it twice.
        handle = conn
        // NOTICEs ("relation … already exists, skipping") are not for the user's terminal.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try execute("SET client_min_messages = warning; SET extra_float_digits = 3")
    }

    deinit { PQfinish(handle) }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql)
    }

    /// Runs a statement with text parameters ($1, $2…; nil is NULL) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws -> PGRows {
        let result = Self.withOptionalCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        do { try check(result, sql) } catch {
            PQclear(result)
            throw error
        }
        return PGRows(result!)
    }

    /// Streams `rows` (PostgreSQL's COPY text format: tab-separated, `\N` for NULL, one row per line)
    /// into `table (columns)`.
    public func copy(into table: String, columns: [String], rows: [UInt8]) throws {
        let sql = "COPY \(table) (\(columns.map(PGConnection.quote).joined(separator: ", "))) FROM STDIN"
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start, sql)
            throw PGError(message: "\(url.shown): \(sql) did not start a copy")
        }
        PQclear(start)
        var sent = 0
        let chunk = 1 << 20
        var failure: String?
        rows.withUnsafeBufferPointer { buffer in
            while sent < buffer.count {
                let n = min(chunk, buffer.count - sent)
                let ok = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    PQputCopyData(handle, $0 + sent, Int32(n))
                }
                guard ok == 1 else { failure = Self.text(PQerrorMessage(handle)); break }
                sent += n
            }
        }
        _ = PQputCopyEnd(handle, failure)
        var error: Error?
        while let result = PQgetResult(handle) {
            if error == nil { do { try check(result, sql) } catch let e { error = e } }
            PQclear(result)
        }
        if let error { throw error }
        if let failure { throw PGError(message: "\(url.shown): copy into \(table) failed: \(url.redact(failure))") }
    }

    /// The rows `COPY (query) TO STDOUT` writes, in PostgreSQL's COPY text format (one row per line),
    /// read whole.
    func copyOut(_ sql: String) throws -> [UInt8] {
        let start = PQexec(handle, sql)
        guard PQresultStatus(start) == PGRES_COPY_OUT else {
            defer { PQclear(start) }
            try check(start, sql)
            throw PGError(message: "\(url.shown): \(sql.prefix(160)) did not start a copy")
        }
        PQclear(start)
        var out: [UInt8] = []
        while true {
            var chunk: UnsafeMutablePointer<CChar>?
            let n = PQgetCopyData(handle, &chunk, 0)
            if n > 0, let chunk {
                chunk.withMemoryRebound(to: UInt8.self, capacity: Int(n)) { out.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(n))) }
                PQfreemem(chunk)
            } else {
                break  // -1: done, -2: failed (the result below says why)
            }
        }
        var error: Error?
        while let result = PQgetResult(handle) {
            if error == nil { do { try check(result, sql) } catch let e { error = e } }
            PQclear(result)
        }
        if let error { throw error }
        return out
    }

    /// `text` as an SQL string literal, quoted by libpq for this connection.
    func literal(_ text: String) throws -> String {
        guard let quoted = PQescapeLiteral(handle, text, text.utf8.count) else {
            throw PGError(message: "\(url.shown): \(url.redact(Self.text(PQerrorMessage(handle))))")
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var inTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// Runs `body`, which writes rows whose keys are most likely new, in a savepoint of the open
    /// transaction; false, with its work undone, when a key was there already (unique_violation).
    func newKeys(_ body: () throws -> Void) throws -> Bool {
        try execute("SAVEPOINT hp_new_keys")
        do {
            try body()
            try execute("RELEASE SAVEPOINT hp_new_keys")
            return true
        } catch let e as PGError where e.sqlState == "23505" {
            try execute("ROLLBACK TO SAVEPOINT hp_new_keys")
            return false
        }
    }

    /// A double-quoted identifier (`end` is a reserved word in PostgreSQL).
    public static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private func check(_ result: OpaquePointer?, _ sql: String) throws {
        guard let result else {
            throw PGError(message: "\(url.shown): \(url.redact(Self.text(PQerrorMessage(handle))))")
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN: return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = url.redact(Self.text(PQresultErrorMessage(result))).trimmingCharacters(in: .whitespacesAndNewlines)
            let statement = sql.count > 160 ? String(sql.prefix(160)) + "…" : sql
            throw PGError(message: "\(url.shown): \(message) (in: \(statement))", sqlState: state)
        }
    }

    static func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let owned = strings.map { strdup($0) }
        defer { owned.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = owned.map { UnsafePointer($0) }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func withOptionalCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let owned = strings.map { $0.map { strdup($0) } ?? nil }
        defer { owned.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

/// The rows of a query, as text (NULL as nil). Owns the libpq result until released.
public final class PGRows {
    private let result: OpaquePointer
    public let count: Int
    public let columns: Int

    init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columns = Int(PQnfields(result))
    }

    deinit { PQclear(result) }

    public func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    public func text(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// The raw bytes of a value (no String made): for the hot columns of a large read.
    @inline(__always)
    public func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let p = PQgetvalue(result, Int32(row), Int32(column))!
        return UnsafeRawBufferPointer(start: p, count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }

    public func int(_ row: Int, _ column: Int) -> Int64 { PGText.int(bytes(row, column)) }
    public func double(_ row: Int, _ column: Int) -> Double { PGText.double(bytes(row, column)) }
    public func optionalDouble(_ row: Int, _ column: Int) -> Double? { isNull(row, column) ? nil : double(row, column) }
}

/// Numbers from PostgreSQL's text output, parsed from bytes.
enum PGText {
    @inline(__always)
    static func int(_ b: UnsafeRawBufferPointer) -> Int64 {
        var v: Int64 = 0, i = 0, negative = false
        if b.count > 0, b[0] == UInt8(ascii: "-") { negative = true; i = 1 }
        while i < b.count { v = v &* 10 &+ Int64(b[i] &- 0x30); i += 1 }
        return negative ? -v : v
    }

    /// Shortest round-trip text (extra_float_digits = 3 prints enough digits) parsed by strtod.
    @inline(__always)
    static func double(_ b: UnsafeRawBufferPointer) -> Double {
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { tmp -> Double in
            guard b.count < tmp.count else { return Double(String(decoding: b, as: UTF8.self)) ?? .nan }
            tmp.copyMemory(from: b)
            tmp[b.count] = 0
            return strtod(tmp.baseAddress!.assumingMemoryBound(to: CChar.self), nil)
        }
    }
}
