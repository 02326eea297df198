import HealthPipeCore

/// The SQLite text of the store's description (`StoreTables`): CREATE TABLE/INDEX/VIEW, and the
/// baseline that creates a new database at the current version in one step.
enum SQLiteDDL {
    static func type(_ t: ColumnType) -> String {
        switch t {
        case .int32, .int64, .rowID: "INTEGER"
        case .double: "REAL"
        case .text, .sortedText: "TEXT"
        }
    }

    static func column(_ c: Column) -> String {
        if let (source, field) = c.generatedFrom {
            return "\(c.name) TEXT GENERATED ALWAYS AS (json_extract(\(source), '$.\(field)')) VIRTUAL"
        }
        if c.type == .rowID { return "\(c.name) INTEGER PRIMARY KEY" }
        var text = "\(c.name) \(type(c.type))"
        if !c.nullable { text += " NOT NULL" }
        if let d = c.defaultValue { text += " DEFAULT \(d)" }
        if let r = c.references { text += " REFERENCES \(r)" }
        if let check = c.check { text += " CHECK (\(check))" }
        return text
    }

    static func createTable(_ t: TableDescription) -> String {
        var lines = t.columns.map(column)
        if !t.primaryKey.isEmpty { lines.append("PRIMARY KEY (\(t.primaryKey.joined(separator: ", ")))") }
        lines += t.unique.map { "UNIQUE (\($0.joined(separator: ", ")))" }
        var sql = "CREATE TABLE \(t.name) (\n    " + lines.joined(separator: ",\n    ") + "\n)"
        if t.withoutRowID { sql += " WITHOUT ROWID" }
        return sql + ";\n" + t.indexes.map { createIndex($0, on: t.name) + "\n" }.joined()
    }

    static func createIndex(_ i: IndexDescription, on table: String) -> String {
        "CREATE \(i.unique ? "UNIQUE " : "")INDEX \(i.name) ON \(table) (\(i.columns.joined(separator: ", ")));"
    }

    static func createView(_ v: ViewDescription) -> String { "CREATE VIEW \(v.name) AS\n\(v.sqlite);\n" }

    /// Every table, index and view of the current version.
    static let baseline: String = StoreTables.tables(in: .sqlite).map(createTable).joined(separator: "\n")
        + "\n" + StoreTables.views(in: .sqlite).map(createView).joined(separator: "\n")
}
