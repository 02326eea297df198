import Testing
import SQLiteStore

@Suite struct SchemaTests {
    @Test func freshDatabaseHasEveryTableAndTheCurrentVersion() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        _ = try SQLiteSchema.open(path: path)
        #expect(try RawSQLite.value(path, "PRAGMA user_version") == String(SQLiteSchema.version))
        #expect(SQLiteSchema.version == SQLiteSchema.migrator.migrations.last!.version)
        #expect(try RawSQLite.value(path, "PRAGMA journal_mode") == "wal")
        let objects = try RawSQLite.rows(path, "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        // Version 1's objects; later versions add their own (tested with them).
        #expect(Set(objects.map { "\($0[0]!) \($0[1]!)" }).isSuperset(of: [
            "table daily_bands", "table daily_summaries", "view day_log", "table events", "table favourites",
            "table imports", "table measurements", "table subject_profiles", "table forecasts", "table alerts",
            "table motion_sessions", "view brushing_sessions", "table devices",
        ]))
        let measurementColumns = try RawSQLite.rows(path, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('measurements')")
        #expect(measurementColumns.map { $0.compactMap { $0 }.joined(separator: " ") } == [
            "subject TEXT 1 1", "metric TEXT 1 2", "source TEXT 1 3", "start INTEGER 1 4", "end INTEGER 1 5",
            "value REAL 1 0", "utc_offset INTEGER 1 0", "unit TEXT 1 0", "flags INTEGER 1 0", "band TEXT 0 0",
            "import_id INTEGER 0 0", "line INTEGER 0 0", "metadata TEXT 0 0", "device_id INTEGER 0 0",
        ])
        #expect(try RawSQLite.value(path, "SELECT count(*) FROM pragma_table_info('events') WHERE pk > 0") == "6")
        #expect(try RawSQLite.value(path, "SELECT count(*) FROM pragma_table_info('imports')") == "15")
    }

    @Test func reopeningIsANoOp() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let first = try SQLiteSchema.open(path: path)
        try first.execute("INSERT INTO favourites VALUES ('alice', '2024-01-01', 'good day', 0)")
        let second = try SQLiteSchema.open(path: path)
        #expect(try second.scalarInt("SELECT count(*) FROM favourites") == 1)
        #expect(try Migrator.version(of: second) == SQLiteSchema.version)
    }

    @Test func newerDatabaseIsRefusedUntouched() throws {
        let dir = try TempDirectory()
        let path = dir.path("future.sqlite")
        try RawSQLite.execute(path, "CREATE TABLE future (x); PRAGMA user_version = 99;")
        let error = #expect(throws: SQLiteSchemaError.self) { try SQLiteSchema.open(path: path) }
        #expect(error?.path == path && error?.found == 99 && error?.supported == SQLiteSchema.version)
        #expect(error?.description.contains("schema version 99 is newer than this healthpipe supports (\(SQLiteSchema.version))") == true)
        // Refused before the WAL pragma or any migration touched the file.
        #expect(try RawSQLite.value(path, "PRAGMA journal_mode") == "delete")
        #expect(try RawSQLite.value(path, "PRAGMA user_version") == "99")
        #expect(try RawSQLite.rows(path, "SELECT name FROM sqlite_schema WHERE name = 'measurements'").isEmpty)
    }

    @Test func olderDatabaseIsMigratedForward() throws {
        let dir = try TempDirectory()
        let path = dir.path("old.sqlite")
        _ = try SQLiteSchema.open(path: path)
        try RawSQLite.execute(path, "INSERT INTO favourites VALUES ('alice', '2024-01-01', NULL, 0)")
        // A build that knows one more step opens the current file.
        let next = Migration(version: SQLiteSchema.version + 1, name: "test column", sql: "ALTER TABLE favourites ADD COLUMN colour TEXT")
        let migrator = Migrator(migrations: SQLiteSchema.migrator.migrations + [next])
        let db = try SQLiteConnection(path: path)
        #expect(try migrator.migrate(db) == SQLiteSchema.version)
        #expect(try Migrator.version(of: db) == SQLiteSchema.version + 1)
        #expect(try db.scalarInt("SELECT count(*) FROM pragma_table_info('favourites') WHERE name = 'colour'") == 1)
        #expect(try db.scalarInt("SELECT count(*) FROM favourites") == 1)
        // …and the current build now refuses it.
        #expect(throws: SQLiteSchemaError.self) { try SQLiteSchema.open(path: path) }
    }

    @Test func failedMigrationLeavesTheOldSchema() throws {
        let dir = try TempDirectory()
        let path = dir.path("old.sqlite")
        _ = try SQLiteSchema.open(path: path)
        let broken = Migration(version: SQLiteSchema.version + 1, name: "broken", sql: "CREATE TABLE half (x); ALTER TABLE nowhere ADD COLUMN y")
        let db = try SQLiteConnection(path: path)
        #expect(throws: SQLiteError.self) { try Migrator(migrations: SQLiteSchema.migrator.migrations + [broken]).migrate(db) }
        #expect(try Migrator.version(of: db) == SQLiteSchema.version)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") == 0)
    }

    @Test func dayLogJoinsDailyRowsAndFavourites() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let db = try SQLiteSchema.open(path: path)
        try db.execute("""
            INSERT INTO daily_summaries VALUES
              ('alice', '2024-03-01', 'glucose', 'mg/dL', 288, 62, 250, 140.5, 30, 1, 1, 180, 20, 0, 0, 1, NULL, NULL),
              ('alice', '2024-03-01', 'heart_rate', 'bpm', 1000, 50, 150, 70, 10, 0, 0, 180, 20, 0, 0, 1, NULL, NULL),
              ('alice', '2024-03-02', 'heart_rate', 'bpm', 1000, 50, 150, 70, 10, 0, 0, 0, 0, 45, 1, 0, NULL, NULL);
            INSERT INTO favourites VALUES ('alice', '2024-03-02', 'run day', 0);
            """)
        let rows = try RawSQLite.rows(path, """
            SELECT day, low, avg, high, hypo, hyper, exercise, stress, illness, favourite FROM day_log ORDER BY day
            """)
        #expect(rows == [
            ["2024-03-01", "62.0", "140.5", "250.0", "1", "1", "0", "1", "0", "0"],
            ["2024-03-02", nil, nil, nil, "0", "0", "1", "0", "1", "1"],
        ])
    }
}
