/// Schema version 9: the personal health log (seed 004, seeds 000/002).
/// - `reports` / `report_values`: health reports by (subject, id), one per subject and instant,
///   each value with its importance 1–5; the values are also measurements (source `report`).
/// - `manual_entries`: insulin, meals, exercise and episodes entered by hand, by (subject, id), with
///   the natural key of the event row each owns (source `manual`).
/// - `report_days`: the daily summary report, derived (replaced by re-aggregation and the refresh).
/// - `reminder_snoozes`, `alert_notices`: user state of `healthpipe alerts`, never touched by
///   re-aggregation.
/// A database that already keeps derivation settings gets the `reports` step with its defaults,
/// and the day after each episode without an end (a Clarity or CareLink marker, which now lasts
/// `daily`'s `episode_length`, 24 h by default) is brought up to date by the next run.
enum SchemaV9 {
    /// `ReportsTransform.fingerprint` of the default settings (a test keeps the two equal).
    static let defaultReportsFingerprint = "reports reminder=none thresholds=[]"

    static let migration = Migration(version: 9, name: "health reports, manual entries, report days, alert state", sql: """
        CREATE TABLE reports (
            subject TEXT NOT NULL,
            id TEXT NOT NULL,
            start INTEGER NOT NULL,          -- UTC epoch seconds
            utc_offset INTEGER NOT NULL,
            note TEXT,
            import_id INTEGER,               -- the file it came from; NULL when typed
            line INTEGER,
            updated_at INTEGER NOT NULL,     -- UTC epoch seconds of the last change
            PRIMARY KEY (subject, id)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX reports_by_time ON reports (subject, start);

        CREATE TABLE report_values (
            subject TEXT NOT NULL,
            report_id TEXT NOT NULL,
            metric TEXT NOT NULL,
            value REAL NOT NULL,             -- canonical unit, as in measurements
            unit TEXT NOT NULL,
            importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 5),
            PRIMARY KEY (subject, report_id, metric)
        ) WITHOUT ROWID;

        CREATE TABLE manual_entries (
            subject TEXT NOT NULL,
            id TEXT NOT NULL,
            kind TEXT NOT NULL,              -- with subtype, source, start and amount: the events row it owns
            subtype TEXT NOT NULL,
            source TEXT NOT NULL,
            start INTEGER NOT NULL,
            amount REAL NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (subject, id)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX manual_entries_by_event ON manual_entries (subject, kind, subtype, source, start, amount);

        CREATE TABLE report_days (
            subject TEXT NOT NULL,
            day TEXT NOT NULL,
            metric TEXT NOT NULL,
            unit TEXT NOT NULL,
            reports INTEGER NOT NULL,        -- reports made that day
            n INTEGER NOT NULL,              -- of which hold this value
            mean REAL NOT NULL,
            min REAL NOT NULL,
            max REAL NOT NULL,
            max_importance INTEGER NOT NULL,
            PRIMARY KEY (subject, day, metric)
        ) WITHOUT ROWID;

        CREATE TABLE reminder_snoozes (
            subject TEXT NOT NULL,
            day TEXT NOT NULL,               -- the local day whose reminder is postponed
            until INTEGER NOT NULL,          -- UTC epoch seconds
            created_at INTEGER NOT NULL,
            PRIMARY KEY (subject, day)
        ) WITHOUT ROWID;

        CREATE TABLE alert_notices (
            subject TEXT NOT NULL,
            kind TEXT NOT NULL,
            metric TEXT NOT NULL,
            start INTEGER NOT NULL,          -- the alert's start (a reminder: its due time without snooze)
            due_at INTEGER NOT NULL,         -- the due time it was announced for
            notified_at INTEGER NOT NULL,
            PRIMARY KEY (subject, kind, metric, start)
        ) WITHOUT ROWID;

        INSERT INTO derivation_settings (step, options, fingerprint)
            SELECT 'reports', '{}', '\(defaultReportsFingerprint)'
             WHERE EXISTS (SELECT 1 FROM derivation_settings)
               AND NOT EXISTS (SELECT 1 FROM derivation_settings WHERE step = 'reports');

        INSERT OR IGNORE INTO derived_pending (subject, day)
            SELECT DISTINCT subject, date(start + utc_offset + 86400, 'unixepoch') FROM events
             WHERE kind = 'episode' AND subtype IN ('illness', 'stress') AND end = start
               AND EXISTS (SELECT 1 FROM derivation_settings);
        """)
}
