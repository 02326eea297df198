/// Builds the upsert statements: insert on a natural key, and on conflict update only when a
/// compared column really differs, so re-importing identical data writes no page and counts 0
/// changes.
enum UpsertSQL {
    /// Inserts rows whose key is not stored yet and leaves the others alone: changes() counts the new rows.
    static func insertIgnoringConflicts(table: String, columns: [String], key: [String], rows: Int = 1) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values(columns: columns.count, rows: rows)) "
            + "ON CONFLICT (\(key.joined(separator: ", "))) DO NOTHING"
    }

    static func values(columns: Int, rows: Int) -> String {
        (0..<rows).map { r in
            "(" + (1...columns).map { "?\(r * columns + $0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }

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
