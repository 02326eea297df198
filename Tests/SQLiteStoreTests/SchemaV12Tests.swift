import Testing
@testable import SQLiteStore

/// Migration 12 on a database summarised before day totals were kept.
@Suite struct SchemaV12Tests {
    @Test func summarisedDaysOfOtherMetricsArePendingForTheirTotals() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let db = try databaseBefore(version: 12, at: path)
        try db.execute("""
            INSERT INTO daily_summaries VALUES
              ('me', '2024-03-01', 'glucose', 'mg/dL', 288, 62, 250, 140.5, 30, 1, 1, 0, 0, 0, 0, 0),
              ('me', '2024-03-01', 'step_count', 'count', 30, 2, 900, 182.5, 100, 0, 0, 0, 0, 0, 0, 0),
              ('me', '2024-03-02', 'heart_rate', 'count/min', 100, 50, 150, 70, 10, 0, 0, 0, 0, 0, 0, 0),
              ('me', '2024-03-03', 'activity', '', 0, NULL, NULL, NULL, NULL, 0, 0, 20, 0, 0, 0, 0);
            """)
        try SQLiteSchema.migrator.migrate(db)
        #expect(try RawSQLite.rows(path, "SELECT total, total_sources FROM daily_summaries WHERE metric = 'step_count'") == [[nil, nil]])
        // Every day with readings other than glucose is re-derived by the next refresh (which fills the totals).
        #expect(try RawSQLite.rows(path, "SELECT subject, day FROM derived_pending ORDER BY day").map { $0.map { $0 ?? "" } }
                == [["me", "2024-03-01"], ["me", "2024-03-02"]])
    }

    /// A reader never migrates (it opens the file read-only): `page`, `serve` and `chart` on a database
    /// summarised before totals read its other metrics' days without totals instead of failing on
    /// "no such column: total" (they did, until an import migrated the file).
    @Test func aReaderOfAnOlderDatabaseReadsItsDaysWithoutTotals() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        let db = try databaseBefore(version: 12, at: path)
        try db.execute("""
            INSERT INTO daily_summaries VALUES
              ('me', '2024-03-01', 'step_count', 'count', 30, 2, 900, 182.5, 100, 0, 0, 0, 0, 0, 0, 0);
            """)
        let rows = try ChartQueries(path: path).otherDailySummaries(subject: "me", fromDay: "2024-03-01", toDay: "2024-03-01")
        #expect(rows.map(\.metric) == ["step_count"] && rows.first?.total == nil && rows.first?.n == 30)
        #expect(try RawSQLite.rows(path, "SELECT count(*) FROM pragma_table_info('daily_summaries') WHERE name = 'total'") == [["0"]])
    }
}
