/// Schema version 12: a day's total for the metrics that add up (steps, distance, energy, sleep
/// minutes), each minute counted once across sources, and what each source counted
/// (`DailySummary.total`, `total_sources`). The days summarised before are listed in
/// `derived_pending`, so the next refresh gives them their totals.
enum SchemaV12 {
    static let migration = Migration(version: 12, name: "day totals", sql: """
        ALTER TABLE daily_summaries ADD COLUMN total REAL;
        ALTER TABLE daily_summaries ADD COLUMN total_sources TEXT;
        INSERT OR IGNORE INTO derived_pending (subject, day)
            SELECT DISTINCT subject, day FROM daily_summaries WHERE metric != 'glucose' AND n > 0;
        """)
}
