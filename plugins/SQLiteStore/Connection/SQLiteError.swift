import CSQLite
import HealthPipeCore

/// A failed SQLite call: the result code, SQLite's message and the SQL being run, so a failure
/// deep in an import names the statement that failed (the GRDB convention).
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Primary result code (`SQLITE_CONSTRAINT` = 19 …).
    public var code: Int32
    /// Extended result code (`SQLITE_CONSTRAINT_NOTNULL` = 1299 …); equals `code` when there is none.
    public var extendedCode: Int32
    public var message: String
    /// The statement that failed; nil for failures outside a statement (opening a file).
    public var sql: String?
    /// The database file; nil when unknown (an in-memory database, a failure before opening).
    public var path: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary code's name as SQLite's documentation spells it (`SQLITE_CONSTRAINT`).
    public var codeName: String {
        let names: [Int32: String] = [
            1: "ERROR", 2: "INTERNAL", 3: "PERM", 4: "ABORT", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY",
            9: "INTERRUPT", 10: "IOERR", 11: "CORRUPT", 12: "NOTFOUND", 13: "FULL", 14: "CANTOPEN", 15: "PROTOCOL",
            16: "EMPTY", 17: "SCHEMA", 18: "TOOBIG", 19: "CONSTRAINT", 20: "MISMATCH", 21: "MISUSE", 22: "NOLFS",
            23: "AUTH", 24: "FORMAT", 25: "RANGE", 26: "NOTADB", 27: "NOTICE", 28: "WARNING",
        ]
        return "SQLITE_" + (names[code] ?? "\(code)")
    }

    /// The error SQLite currently reports on `db` for a call that returned `resultCode`.
    init(resultCode: Int32, db: OpaquePointer?, sql: String?) {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        // The step/prepare return code is authoritative; errcode may already be reset by then.
        let extended = db.map { sqlite3_extended_errcode($0) } ?? resultCode
        // The file comes from the connection itself, so every error names it without plumbing.
        let file = db.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }
        self.init(code: resultCode, extendedCode: (extended & 0xFF) == (resultCode & 0xFF) ? extended : resultCode,
                  message: message, sql: sql, path: file?.isEmpty == false ? file : nil)
    }

    public var description: String {
        var text = (path.map { "\($0): " } ?? "") + "SQLite error \(code) (\(codeName)): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}

/// The database's schema is one this build cannot safely use.
public struct SQLiteSchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var found: Int32
    public var supported: Int32

    public var description: String {
        "\(path): database schema version \(found) is newer than this healthpipe supports (\(supported)); "
            + "upgrade healthpipe or write to a different database"
    }
}

/// An SQLite file of another program given as the database: refused in one line, untouched.
public struct SQLiteForeignDatabaseError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var tables: [String]

    public var description: String {
        let shown = tables.prefix(5).map { EchoText.cap($0, to: 40) }.joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        return "\(path): not a HealthPipe database (an SQLite file of another program, with tables \(shown)); "
            + "nothing was written to it: choose another database file"
    }
}
