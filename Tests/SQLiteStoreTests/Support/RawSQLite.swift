import CSQLite

/// Reads a database through the bare C API, independently of the code under test.
enum RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Every row of `sql` as text (NULL → nil), read over a fresh read-only connection.
    static func rows(_ path: String, _ sql: String) throws -> [[String?]] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)) + " in " + sql)
        }
        defer { sqlite3_finalize(stmt) }
        var result: [[String?]] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
            result.append((0..<sqlite3_column_count(stmt)).map { i in
                sqlite3_column_text(stmt, i).map { String(cString: $0) }
            })
        }
        return result
    }

    /// The single value of a one-row, one-column query.
    static func value(_ path: String, _ sql: String) throws -> String? {
        let r = try rows(path, sql)
        guard r.count == 1, r[0].count == 1 else { throw Failure(description: "expected one value from \(sql), got \(r)") }
        return r[0][0]
    }

    static func count(_ path: String, _ table: String) throws -> Int {
        Int(try value(path, "SELECT count(*) FROM \(table)") ?? "") ?? -1
    }

    /// Runs statements on a read-write connection (to prepare fixtures such as a future schema).
    static func execute(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }
}
