/// Schema version 4: glucose forecasts and alerts (docs/schema.md). Both are derived tables:
/// `healthpipe reaggregate` replaces them wholesale.
enum SchemaV4 {
    static let migration = Migration(version: 4, name: "forecasts and alerts", sql: """
        CREATE TABLE forecasts (
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            model TEXT NOT NULL,     -- ar2 | ridge | ridge-treatments
            issued_at INTEGER NOT NULL, -- UTC epoch s of the newest reading used
            at INTEGER NOT NULL,     -- UTC epoch s the value is predicted for
            utc_offset INTEGER NOT NULL,
            value REAL NOT NULL,
            PRIMARY KEY (subject, metric, model, issued_at, at)
        ) WITHOUT ROWID;

        CREATE TABLE alerts (
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            kind TEXT NOT NULL,      -- predicted_low | predicted_high | low | high
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            duration_min REAL NOT NULL,
            value REAL NOT NULL,     -- lowest (low) / highest (high) value, measured or predicted
            threshold REAL NOT NULL,
            model TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (subject, metric, kind, start)
        ) WITHOUT ROWID;
        """)
}
