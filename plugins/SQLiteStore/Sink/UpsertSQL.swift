import HealthPipeCore
import Synchronization

/// Builds the upsert statements: insert on a natural key, and on conflict update only when a
/// compared column really differs, so re-importing identical data writes no page and counts 0
/// changes. The columns, key and compared columns come from the table's description (`StoreTables`).
enum UpsertSQL {
    /// The upsert of every written column of `table` on its natural key.
    static func make(_ table: TableDescription, rows: Int = 1) -> String {
        make(table: table.name, columns: table.writtenColumns, key: table.naturalKey, update: table.updatedColumns,
             changedWhen: table.comparedColumns, rows: rows)
    }

    static func insertIgnoringConflicts(_ table: TableDescription, rows: Int = 1) -> String {
        insertIgnoringConflicts(table: table.name, columns: table.writtenColumns, key: table.naturalKey, rows: rows)
    }

    /// A plain insert of every written column (a conflict is an error).
    static func insert(_ table: TableDescription) -> String {
        "INSERT INTO \(table.name) (\(table.writtenColumns.joined(separator: ", "))) VALUES \(values(columns: table.writtenColumns.count, rows: 1))"
    }

    /// Inserts or replaces every column outside the key, compared or not (user state: the latest edit wins).
    static func replacing(_ table: TableDescription) -> String {
        insert(table) + " ON CONFLICT (\(table.naturalKey.joined(separator: ", "))) DO UPDATE SET "
            + table.updatedColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    }

    /// Inserts rows whose key is not stored yet and leaves the others alone: changes() counts the new rows.
    static func insertIgnoringConflicts(table: String, columns: [String], key: [String], rows: Int = 1) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values(columns: columns.count, rows: rows)) "
            + "ON CONFLICT (\(key.joined(separator: ", "))) DO NOTHING"
    }

    /// `(?1, ?2), (?3, ?4)…`: written once per shape and kept (a group's list has a thousand parameters,
    /// and every run of a long-running server asks for the same few).
    static func values(columns: Int, rows: Int) -> String {
        let shape = Shape(columns: columns, rows: rows)
        if let known = valueLists.withLock({ $0[shape] }) { return known }
        let list = (0..<rows).map { r in
            "(" + (1...columns).map { "?\(r * columns + $0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
        valueLists.withLock { $0[shape] = list }
        return list
    }

    private struct Shape: Hashable {
        let columns: Int, rows: Int
    }

    private static let valueLists = Mutex<[Shape: String]>([:])

    /// `rows` > 1 makes a multi-row VALUES list (row r's column c is parameter r × columns + c + 1):
    /// one step per group of rows spares SQLite the per-statement setup of each step.
    static func make(table: String, columns: [String], key: [String], update: [String], changedWhen: [String],
                     rows: Int = 1) -> String {
        let values = Self.values(columns: columns.count, rows: rows)
        let set = update.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let differs = changedWhen.map { "\(table).\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values) "
            + "ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(set) WHERE \(differs)"
    }
}
