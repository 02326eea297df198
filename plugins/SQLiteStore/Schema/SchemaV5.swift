/// Schema version 5: motion (toothbrushing) sessions from the serial/BLE accelerometer stream,
/// with the seed's local date fields, and a view that adds Apple Health toothbrushing records
/// (measurements.metric or events.subtype 'toothbrushing') so the history sees every session.
/// Creates only its own objects, so it applies after any of versions 2–4.
enum SchemaV5 {
    /// Also recreated by version 7, which rebuilds `measurements`.
    static let brushingSessionsView = """
        -- Every toothbrushing session whatever its origin: the stream's sessions plus Apple Health
        -- HKCategoryTypeIdentifierToothbrushingEvent rows stored as measurements (metric
        -- 'toothbrushing', start/end) or events (subtype 'toothbrushing').
        CREATE VIEW brushing_sessions AS
        SELECT subject, start, end, utc_offset, average, accomplishment, device AS origin, 'motion' AS kind
          FROM motion_sessions
        UNION ALL
        SELECT subject, start, end, utc_offset, NULL, NULL, source, 'measurement'
          FROM measurements WHERE metric IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent')
        UNION ALL
        SELECT subject, start, end, utc_offset, NULL, NULL, source, 'event'
          FROM events WHERE subtype IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent');
        """

    static let migration = Migration(version: 5, name: "motion sessions", sql: """
        CREATE TABLE motion_sessions (
            subject TEXT NOT NULL,
            device TEXT NOT NULL,
            start_ms INTEGER NOT NULL,      -- UTC epoch milliseconds of the first sample
            source TEXT NOT NULL,
            end_ms INTEGER NOT NULL,
            start INTEGER NOT NULL,         -- UTC epoch seconds, like the other tables
            end INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            duration_s REAL NOT NULL,
            active_s REAL NOT NULL,
            average REAL NOT NULL,          -- mean movement, g (gravity removed)
            accomplishment REAL NOT NULL,   -- 0–100 % of the goal
            samples INTEGER NOT NULL,
            end_reason TEXT NOT NULL,       -- target | idle | disconnect | end
            year INTEGER NOT NULL,          -- local date fields, as the seed stores them
            month INTEGER NOT NULL,
            day INTEGER NOT NULL,
            time TEXT NOT NULL,             -- HH:MM:SS local
            day_of_week INTEGER NOT NULL,   -- 1 = Monday … 7 = Sunday (ISO 8601)
            days_in_month INTEGER NOT NULL,
            line INTEGER,
            PRIMARY KEY (subject, device, start_ms)
        ) WITHOUT ROWID;
        CREATE INDEX motion_sessions_by_time ON motion_sessions (subject, start);

        \(brushingSessionsView)
        """)
}
