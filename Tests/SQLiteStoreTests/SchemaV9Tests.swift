import Testing
@testable import SQLiteStore

/// Migration 9 on a database with settings and episode markers from earlier versions.
@Suite struct SchemaV9Tests {
    @Test func keptSettingsGetTheReportsStepAndMarkerDaysArePending() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let db = try databaseBefore(version: 9, at: path)
        try db.execute("""
            INSERT INTO derivation_settings (step, options, fingerprint) VALUES ('classify', '{}', 'c'), ('daily', '{}', 'd');
            INSERT INTO events (subject, kind, subtype, source, start, end, utc_offset) VALUES
                ('me', 'episode', 'illness', 'Dexcom', 1709622000, 1709622000, 3600),
                ('me', 'episode', 'stress', 'Dexcom', 1709622000, 1709640000, 3600);
            """)
        try SQLiteSchema.migrator.migrate(db)
        #expect(try RawSQLite.value(path, "SELECT fingerprint FROM derivation_settings WHERE step = 'reports'") == SchemaV9.defaultReportsFingerprint)
        // The marker (no end) now lasts a day: the day after it is brought up to date; the closed one is not.
        #expect(try RawSQLite.rows(path, "SELECT subject, day FROM derived_pending").map { $0.map { $0 ?? "" } } == [["me", "2024-03-06"]])
        for table in ["reports", "report_values", "manual_entries", "report_days", "reminder_snoozes", "alert_notices"] {
            #expect(try RawSQLite.count(path, table) == 0)
        }
    }

    @Test func aNewDatabaseKeepsNoSettingsYet() throws {
        let dir = try TempDirectory()
        let path = dir.path("n.sqlite")
        _ = try SQLiteSchema.open(path: path)
        #expect(try RawSQLite.count(path, "derivation_settings") == 0)
        #expect(try RawSQLite.count(path, "derived_pending") == 0)
    }
}
