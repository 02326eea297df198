/// PostgreSQL schema version 6: a day's total and what each source counted (as SQLite's version 12);
/// the days summarised before are pending, so the next refresh gives them their totals.
enum PostgresSchemaV6 {
    static let migration = PostgresMigration(version: 6, name: "day totals", sql: """
        ALTER TABLE daily_summaries ADD COLUMN total double precision;
        ALTER TABLE daily_summaries ADD COLUMN total_sources text;
        INSERT INTO derived_pending (subject, day)
            SELECT DISTINCT subject, day FROM daily_summaries WHERE metric != 'glucose' AND n > 0
            ON CONFLICT DO NOTHING;
        """)
}
