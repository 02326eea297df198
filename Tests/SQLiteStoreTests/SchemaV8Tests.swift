import Testing
@testable import SQLiteStore

/// Migration 8 on a database built by versions 1–6: the new tables, and Clarity readings moved to
/// the canonical CGM source with same-reading twins removed.
@Suite struct SchemaV8Tests {
    @Test func clarityReadingsGetTheCanonicalSourceAndTwinsGo() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let upTo6 = Migrator(migrations: [SchemaV1.migration, SchemaV2.migration, SchemaV3.migration, SchemaV4.migration,
                                          SchemaV5.migration, SchemaV6.migration])
        let db = try SQLiteConnection(path: path)
        try upTo6.migrate(db)
        try db.execute("""
            INSERT INTO imports (id, path, format, first_started_at, started_at, status) VALUES
                (1, 'clarity.csv', 'dexcom-clarity', 0, 0, 'complete'), (2, 'export.zip', 'apple-health', 0, 0, 'complete'),
                (3, 'new-clarity.csv', 'dexcom-clarity', 0, 0, 'complete');
            INSERT INTO measurements (subject, metric, source, start, end, value, utc_offset, unit, import_id) VALUES
                ('me', 'glucose', 'iPhone G6', 100, 100, 120, 0, 'mg/dL', 1),
                ('me', 'glucose', 'iPhone G6', 400, 400, 125, 0, 'mg/dL', 1),
                ('me', 'glucose', 'Dexcom', 400, 400, 125, 0, 'mg/dL', 3),
                ('me', 'blood_glucose', 'iPhone G6', 500, 500, 118, 0, 'mg/dL', 1),
                ('me', 'glucose', 'Dexcom G6', 100, 100, 121, 0, 'mg/dL', 2);
            INSERT INTO events (subject, kind, subtype, source, start, end, utc_offset, import_id) VALUES
                ('me', 'insulin', 'bolus', 'iPhone G6', 100, 100, 0, 1);
            """)
        try SQLiteSchema.migrator.migrate(db)
        #expect(try RawSQLite.value(path, "PRAGMA user_version") == String(SQLiteSchema.version))
        let rows = try RawSQLite.rows(path, "SELECT metric, source, start, import_id FROM measurements ORDER BY import_id, start")
        // The 400 reading existed twice (old and canonical source): one row stays. Apple's own
        // source name and Clarity's events are untouched.
        #expect(rows.map { $0.map { $0 ?? "NULL" } } == [
            ["glucose", "Dexcom", "100", "1"], ["blood_glucose", "Dexcom", "500", "1"],
            ["glucose", "Dexcom G6", "100", "2"], ["glucose", "Dexcom", "400", "3"]])
        #expect(try RawSQLite.value(path, "SELECT source FROM events") == "iPhone G6")
        for table in ["workout_routes", "route_points", "electrocardiograms", "ecg_samples"] {
            #expect(try RawSQLite.count(path, table) == 0)
        }
    }
}
