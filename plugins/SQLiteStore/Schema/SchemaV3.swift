/// Schema version 3: CGM metric sets (docs/schema.md, docs/analytics.md). One row per subject,
/// metric, period and metric name — long format, so new metrics need no new columns — and the
/// AGP profile per time of day. A single day is a period whose start and end are equal.
enum SchemaV3 {
    static let migration = Migration(version: 3, name: "glucose metrics and AGP", sql: """
        CREATE TABLE glucose_metrics (
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            period_start TEXT NOT NULL, -- YYYY-MM-DD, local, inclusive
            period_end TEXT NOT NULL,   -- YYYY-MM-DD, local, inclusive
            name TEXT NOT NULL,         -- mean, sd, cv_pct, tir_70_180_pct, mage_ma, conga1, modd, …
            value REAL NOT NULL,
            unit TEXT NOT NULL,         -- the readings' unit (mg/dL); percentages and indices are unitless
            PRIMARY KEY (subject, metric, period_start, period_end, name)
        ) WITHOUT ROWID;

        CREATE TABLE glucose_agp (
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            period_start TEXT NOT NULL,
            period_end TEXT NOT NULL,
            minute_of_day INTEGER NOT NULL, -- 0 = the grid's 24:00 column, 5 = 00:05, …
            n INTEGER NOT NULL,             -- days with a value in this column
            p05 REAL NOT NULL,
            p25 REAL NOT NULL,
            p50 REAL NOT NULL,
            p75 REAL NOT NULL,
            p95 REAL NOT NULL,
            PRIMARY KEY (subject, metric, period_start, period_end, minute_of_day)
        ) WITHOUT ROWID;
        """)
}
