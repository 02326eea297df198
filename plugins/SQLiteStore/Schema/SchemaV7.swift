/// Schema version 7: derived data are a function of the store (docs/schema.md, "The derived-data rule").
/// - `measurements` is keyed on (subject, metric, source, start, end): the value is no longer part of
///   the natural key, so a corrected value replaces the row it corrects. Rows the old key kept side by
///   side are folded: the one imported last (highest import id, then line, then value) stays, the
///   others move to `superseded_measurements`, so nothing is lost.
/// - `derived_pending` lists (subject, local day) whose derived rows are not yet brought up to date
///   with their readings; every day with data starts there, so the next import or re-aggregation
///   recomputes what earlier versions derived from the passing stream.
/// - `derivation_settings` holds the settings derived rows are computed with, one row per step.
enum SchemaV7 {
    static let columns = "subject, metric, source, start, end, value, utc_offset, unit, flags, band, import_id, line, metadata, device_id"

    /// The reading columns both tables of this version hold, up to `device_id` (frozen with it).
    private static let readingColumns = """
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            source TEXT NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            value REAL NOT NULL,
            utc_offset INTEGER NOT NULL,
            unit TEXT NOT NULL,
            flags INTEGER NOT NULL DEFAULT 0,
            band TEXT,
            import_id INTEGER,
            line INTEGER,
            metadata TEXT,
        """

    static let migration = Migration(version: 7, name: "natural key without the value, pending days, derivation settings", sql: """
        CREATE TABLE measurements_v7 (
        \(readingColumns)
            device_id INTEGER REFERENCES devices(id),
            PRIMARY KEY (subject, metric, source, start, end)
        ) WITHOUT ROWID;

        CREATE TABLE superseded_measurements (
        \(readingColumns)
            device_id INTEGER,
            superseded_at INTEGER NOT NULL -- UTC epoch s of the migration that moved it here
        );

        INSERT INTO superseded_measurements (\(columns), superseded_at)
            SELECT \(columns), CAST(strftime('%s', 'now') AS INTEGER) FROM measurements m
             WHERE EXISTS (SELECT 1 FROM measurements n
                            WHERE n.subject = m.subject AND n.metric = m.metric AND n.source = m.source
                              AND n.start = m.start AND n.end = m.end
                              AND (coalesce(n.import_id, -1), coalesce(n.line, -1), n.value)
                                  > (coalesce(m.import_id, -1), coalesce(m.line, -1), m.value));
        INSERT INTO measurements_v7 (\(columns))
            SELECT \(columns) FROM measurements m
             WHERE NOT EXISTS (SELECT 1 FROM measurements n
                                WHERE n.subject = m.subject AND n.metric = m.metric AND n.source = m.source
                                  AND n.start = m.start AND n.end = m.end
                                  AND (coalesce(n.import_id, -1), coalesce(n.line, -1), n.value)
                                      > (coalesce(m.import_id, -1), coalesce(m.line, -1), m.value));

        DROP VIEW brushing_sessions;
        DROP TABLE measurements;
        ALTER TABLE measurements_v7 RENAME TO measurements;
        \(SchemaV5.brushingSessionsView)

        -- Events by time: a refresh reads the events of a few days.
        CREATE INDEX events_by_time ON events (subject, start);

        CREATE TABLE derived_pending (
            subject TEXT NOT NULL,
            day TEXT NOT NULL, -- YYYY-MM-DD, local
            PRIMARY KEY (subject, day)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO derived_pending (subject, day)
            SELECT DISTINCT subject, date(start + utc_offset, 'unixepoch') FROM measurements WHERE flags & 128 = 0;
        INSERT OR IGNORE INTO derived_pending (subject, day)
            SELECT DISTINCT subject, date(start + utc_offset, 'unixepoch') FROM events;

        CREATE TABLE derivation_settings (
            step TEXT PRIMARY KEY,      -- resample | classify | daily | predict | alerts
            options TEXT NOT NULL,      -- the step's options as a YAML flow mapping
            fingerprint TEXT NOT NULL   -- the effective settings, every default filled in
        );
        """)
}
