import HealthPipeCore

/// The PostgreSQL text of the store's description (`StoreTables`): the same names, columns and keys
/// as SQLite, typed by width, text that keys rows in the byte-order "C" collation (the order SQLite
/// sorts in); ids are `bigserial`, and no foreign keys (SQLite keeps them unenforced).
enum PostgresDDL {
    static func type(_ t: ColumnType) -> String {
        switch t {
        case .int32: "integer"
        case .int64: "bigint"
        case .rowID: "bigserial"
        case .double: "double precision"
        case .text: "text"
        case .sortedText: "text COLLATE \"C\""
        }
    }

    static func column(_ c: Column) -> String {
        let name = PGConnection.quote(c.name)
        if let (source, field) = c.generatedFrom {
            return "\(name) text GENERATED ALWAYS AS (\(PGConnection.quote(source))::jsonb ->> '\(field)') STORED"
        }
        if c.type == .rowID { return "\(name) bigserial PRIMARY KEY" }
        var text = "\(name) \(type(c.type))"
        if !c.nullable { text += " NOT NULL" }
        if let d = c.defaultValue { text += " DEFAULT \(d)" }
        if let check = c.check { text += " CHECK (\(check))" }
        return text
    }

    static func names(_ columns: [String]) -> String { columns.map(PGConnection.quote).joined(separator: ", ") }

    static func createTable(_ t: TableDescription) -> String {
        var lines = t.columns.map(column)
        if !t.primaryKey.isEmpty { lines.append("PRIMARY KEY (\(names(t.primaryKey)))") }
        lines += t.unique.map { "UNIQUE (\(names($0)))" }
        return "CREATE TABLE \(t.name) (\n    " + lines.joined(separator: ",\n    ") + "\n);\n"
            + t.indexes.map {
                "CREATE \($0.unique ? "UNIQUE " : "")INDEX \($0.name) ON \(t.name) (\(names($0.columns)));\n"
            }.joined()
    }

    static func createView(_ v: ViewDescription) -> String { "CREATE VIEW \(v.name) AS\n\(v.postgres);\n" }

    /// Every table, index and view of the current version.
    static let baseline: String = StoreTables.tables(in: .postgres).map(createTable).joined(separator: "\n")
        + "\n" + StoreTables.views(in: .postgres).map(createView).joined(separator: "\n")
}
