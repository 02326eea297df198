/// The two SQL dialects a HealthPipe store is kept in.
public enum StoreDialect: String, Sendable, CaseIterable {
    case sqlite, postgres
}

/// A column's type, named once for both dialects. SQLite stores every integer as INTEGER; PostgreSQL
/// needs the width. Text that keys or groups rows sorts by bytes in both (SQLite's default; COLLATE "C"
/// in PostgreSQL), so one query orders the same on either store.
public enum ColumnType: Sendable, Equatable {
    case int32, int64, double, text
    /// Text compared and sorted by bytes.
    case sortedText
    /// An id besides the natural key, which rows of another table name: SQLite's rowid, PostgreSQL's bigserial.
    case rowID
}

/// One column: its name, type and nullability, the default a row gets without it, and what SQLite alone
/// declares (a foreign key, which PostgreSQL leaves out as SQLite does not enforce it; a check).
public struct Column: Sendable {
    public var name: String
    public var type: ColumnType
    public var nullable: Bool
    /// An SQL literal valid in both dialects (`0`, `''`).
    public var defaultValue: String?
    /// `devices(id)`: a foreign key SQLite declares (its enforcement is off, as in PostgreSQL, which declares none).
    public var references: String?
    public var check: String?
    /// A column computed from a field of a JSON text column (`devices.name` from `attributes`).
    public var generatedFrom: (column: String, jsonField: String)?

    public static func required(_ name: String, _ type: ColumnType, default value: String? = nil, check: String? = nil) -> Column {
        Column(name: name, type: type, nullable: false, defaultValue: value, check: check)
    }

    public static func optional(_ name: String, _ type: ColumnType, references: String? = nil) -> Column {
        Column(name: name, type: type, nullable: true, references: references)
    }

    public static func id() -> Column { Column(name: "id", type: .rowID, nullable: true) }

    public static func json(_ name: String, field: String, of column: String) -> Column {
        Column(name: name, type: .text, nullable: true, generatedFrom: (column, field))
    }
}

/// A secondary index (the keys' own indexes come with the table).
public struct IndexDescription: Sendable {
    public var name: String
    public var columns: [String]
    public var unique: Bool
    public init(_ name: String, on columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.unique = unique
    }
}

/// One table of the store, from which each dialect's DDL and each writer's column lists are made
/// (docs/schema.md). Columns are in the order a store migrated from version 1 has them.
public struct TableDescription: Sendable {
    public var name: String
    public var columns: [Column]
    /// Empty when the table has a `rowID` column (which is then its primary key).
    public var primaryKey: [String]
    public var unique: [[String]]
    public var indexes: [IndexDescription]
    public var dialects: Set<StoreDialect>
    /// SQLite stores the rows in key order without a rowid (tables read by key range).
    public var withoutRowID: Bool
    /// Columns an upsert updates but does not compare: they follow the write that last changed the row
    /// (where it came from), and a write that differs only in them changes nothing.
    public var notCompared: [String]

    public init(_ name: String, columns: [Column], primaryKey: [String] = [], unique: [[String]] = [],
                indexes: [IndexDescription] = [], in dialects: Set<StoreDialect> = Set(StoreDialect.allCases),
                withoutRowID: Bool = false, notCompared: [String] = []) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.unique = unique
        self.indexes = indexes
        self.dialects = dialects
        self.withoutRowID = withoutRowID
        self.notCompared = notCompared
        precondition(Set(primaryKey + unique.joined() + notCompared + indexes.flatMap(\.columns)).isSubset(of: columns.map(\.name)),
                     "\(name): a key, index or upsert rule names a column the table does not have")
    }

    public func column(_ name: String) -> Column? { columns.first { $0.name == name } }

    public var hasRowID: Bool { columns.contains { $0.type == .rowID } }

    /// What an upsert conflicts on: the primary key, or for a table with an id the first unique key.
    public var naturalKey: [String] { primaryKey.isEmpty ? unique.first ?? [] : primaryKey }

    /// The columns a writer supplies, in table order: all but the id and generated columns.
    public var writtenColumns: [String] {
        columns.filter { $0.type != .rowID && $0.generatedFrom == nil }.map(\.name)
    }

    /// Set from the new row on a conflict: every written column outside the natural key.
    public var updatedColumns: [String] { writtenColumns.filter { !naturalKey.contains($0) } }

    /// Compared on a conflict: the row changes only when one of these differs.
    public var comparedColumns: [String] { updatedColumns.filter { !notCompared.contains($0) } }
}

/// A view, in both dialects: one SELECT for both, or one each where they truly differ.
public struct ViewDescription: Sendable {
    public var name: String
    public var sqlite: String
    public var postgres: String
    public var dialects: Set<StoreDialect>

    public init(_ name: String, select: String) {
        self.name = name
        sqlite = select
        postgres = select
        dialects = Set(StoreDialect.allCases)
    }

    public init(_ name: String, sqlite: String, postgres: String) {
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
        dialects = Set(StoreDialect.allCases)
    }

    /// A view of one store only (where the other has a table of that name).
    public init(_ name: String, postgresOnly select: String) {
        self.name = name
        sqlite = ""
        postgres = select
        dialects = [.postgres]
    }
}
