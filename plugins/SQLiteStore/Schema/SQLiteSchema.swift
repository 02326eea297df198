/// The HealthPipe database: its migration history, the baseline a new database starts from (made from
/// `StoreTables`, equal to what the history builds: SchemaBaselineTests), and how a connection is opened for writing.
public enum SQLiteSchema {
    public static let migrator = Migrator(migrations: [SchemaV1.migration, SchemaV2.migration, SchemaV3.migration,
                                                       SchemaV4.migration, SchemaV5.migration, SchemaV6.migration,
                                                       SchemaV7.migration, SchemaV8.migration, SchemaV9.migration,
                                                       SchemaV10.migration, SchemaV11.migration, SchemaV12.migration,
                                                       SchemaV13.migration],
                                          baseline: SQLiteDDL.baseline)
    public static var version: Int32 { migrator.latestVersion }

    /// Opens (creating if needed) a database, refuses one from a newer build, sets the pragmas and
    /// migrates it to the current schema. A kept connection (`ConnectionPool`) was configured and
    /// migrated when it was opened; it is still checked against a newer build.
    public static func open(path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection.open(path: path)
        // Check before the WAL pragma, which would already change the file.
        try migrator.checkSupported(db)
        if !db.database.configured { try refuseForeign(db) }
        guard !db.database.configured else { return db }
        try configure(db)
        try migrator.migrate(db)
        db.database.configured = true
        return db
    }

    /// Refuses another program's SQLite file before anything is written to it. HealthPipe sets
    /// `user_version` in the transaction that creates its tables (`imports` first among them), so
    /// tables without a version, or a version without `imports`, are someone else's.
    static func refuseForeign(_ db: SQLiteConnection) throws {
        let stmt = try db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        var tables: [String] = []
        while try stmt.step() { if let name = stmt.text(0) { tables.append(name) } }
        guard !tables.isEmpty else { return }  // a new or empty file becomes a HealthPipe database
        if try Migrator.version(of: db) == 0 || !tables.contains("imports") {
            throw SQLiteForeignDatabaseError(path: db.path, tables: tables)
        }
    }

    /// WAL: a killed run loses only its open transaction and readers never block the writer.
    /// synchronous=NORMAL is durable across crashes of the process in WAL mode (only a power loss
    /// can drop the last commits, never corrupt the file). The page cache is capped at 2 MiB so a
    /// multi-GB import keeps a flat, small footprint (the upsert pattern is append-mostly anyway).
    static func configure(_ db: SQLiteConnection) throws {
        try db.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = OFF;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -2048;
            """)
    }
}
