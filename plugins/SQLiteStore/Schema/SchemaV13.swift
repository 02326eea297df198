/// Schema version 13: the rows a client deleted (`deleted_rows`), remembered so that importing the
/// same file or upload again does not bring them back (`import --restore-deleted` does); and the
/// person's food database (`foods`, Nightscout's `food` collection).
enum SchemaV13 {
    static let migration = Migration(version: 13, name: "deleted rows and foods", sql: """
        CREATE TABLE deleted_rows (
            subject TEXT NOT NULL,
            row_table TEXT NOT NULL,
            name TEXT NOT NULL,
            subtype TEXT NOT NULL,
            source TEXT NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            amount REAL NOT NULL,
            utc_offset INTEGER NOT NULL,
            value REAL,
            metadata TEXT,
            deleted_at INTEGER NOT NULL,
            PRIMARY KEY (subject, row_table, name, subtype, source, start, "end", amount)
        ) WITHOUT ROWID;
        CREATE TABLE foods (
            subject TEXT NOT NULL,
            id TEXT NOT NULL,
            document TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (subject, id)
        );
        """)
}
