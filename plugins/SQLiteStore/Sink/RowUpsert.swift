import HealthPipeCore

/// Upserts rows of one table one by one through a persistent statement made from the table's
/// description; `bind` sets one row's parameters in the description's column order. The writers
/// whose rows map straight onto one table are instances of it (their binding in `RowBindings`).
final class RowUpsert<Row> {
    private let statement: Statement
    private let bind: (Row, Statement) throws -> Void

    init(db: SQLiteConnection, table: TableDescription, bind: @escaping (Row, Statement) throws -> Void) throws {
        statement = try db.prepare(UpsertSQL.make(table), persistent: true)
        self.bind = bind
    }

    func write(_ rows: ArraySlice<Row>) throws {
        for row in rows {
            try bind(row, statement)
            try statement.run()
        }
    }
}
