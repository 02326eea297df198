/// The HealthPipe database: its migration history, the baseline a new database starts from (made from
/// `StoreTables`, equal to what the history builds: SchemaBaselineTests), and how a connection is opened for writing.
public enum SQLiteSchema {
    public static let migrator = Migrator(migrations: [SchemaV1.migration, SchemaV2.migration, SchemaV3.migration,
                                                       SchemaV4.migration, SchemaV5.migration, SchemaV6.migration,
                                                       SchemaV7.migration, SchemaV8.migration, SchemaV9.migration,
                                                       SchemaV10.migration, SchemaV11.migration],
                                          baseline: SQLiteDDL.baseline)
    public static var version: Int32 { migrator.latestVersion }

    /// Opens (creating if needed) a database, refuses one from a newer build, sets the pragmas and
    /// migrates it to the current schema. A kept connection (`ConnectionPool`) was configured and
    /// migrated when it was opened; it is still checked against a newer build.
    public static func open(path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection.open(path: path)
        // Check before the WAL pragma, which would already change the file.
        try migrator.checkSupported(db)
        guard !db.database.configured else { return db }
        try configure(db)
        try migrator.migrate(db)
        db.database.configured = true
        return db
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
