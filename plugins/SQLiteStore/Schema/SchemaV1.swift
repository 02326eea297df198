/// Schema version 1, as documented in docs/schema.md. Plain SQL types only (INTEGER epoch seconds,
/// REAL values, TEXT names) so any SQLite client can read it.
enum SchemaV1 {
    static let migration = Migration(version: 1, name: "initial schema", sql: """
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            format TEXT NOT NULL DEFAULT '',
            size INTEGER,
            hash TEXT NOT NULL DEFAULT '',
            first_started_at INTEGER NOT NULL,
            started_at INTEGER NOT NULL,
            finished_at INTEGER,
            status TEXT NOT NULL, -- running | complete | interrupted | failed
            runs INTEGER NOT NULL DEFAULT 1,
            rows_read INTEGER NOT NULL DEFAULT 0,
            measurements INTEGER NOT NULL DEFAULT 0,
            events INTEGER NOT NULL DEFAULT 0,
            rejected INTEGER NOT NULL DEFAULT 0,
            new_rows INTEGER NOT NULL DEFAULT 0
        );

        CREATE TABLE measurements (
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
            PRIMARY KEY (subject, metric, source, start, end, value)
        ) WITHOUT ROWID;

        CREATE TABLE events (
            subject TEXT NOT NULL,
            kind TEXT NOT NULL,
            subtype TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL,
            start INTEGER NOT NULL,
            -- key columns first: SQLite 3.40's integrity_check misreads WITHOUT ROWID tables otherwise
            amount REAL NOT NULL DEFAULT 0,
            end INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            carbs_g REAL,
            protein_g REAL,
            fat_g REAL,
            insulin_u REAL,
            intensity TEXT,
            note TEXT,
            flags INTEGER NOT NULL DEFAULT 0,
            import_id INTEGER,
            line INTEGER,
            PRIMARY KEY (subject, kind, subtype, source, start, amount)
        ) WITHOUT ROWID;

        CREATE TABLE daily_summaries (
            subject TEXT NOT NULL,
            day TEXT NOT NULL, -- YYYY-MM-DD, local
            metric TEXT NOT NULL,
            unit TEXT NOT NULL,
            n INTEGER NOT NULL,
            min REAL,
            max REAL,
            mean REAL,
            sd REAL,
            hypo INTEGER NOT NULL,
            hyper INTEGER NOT NULL,
            carbs_g REAL NOT NULL,
            insulin_u REAL NOT NULL,
            exercise_min REAL NOT NULL,
            illness INTEGER NOT NULL,
            stress INTEGER NOT NULL,
            PRIMARY KEY (subject, day, metric)
        );

        CREATE TABLE daily_bands (
            subject TEXT NOT NULL,
            day TEXT NOT NULL,
            metric TEXT NOT NULL,
            band TEXT NOT NULL,
            percent REAL NOT NULL,
            PRIMARY KEY (subject, day, metric, band)
        );

        CREATE TABLE favourites (
            subject TEXT NOT NULL,
            day TEXT NOT NULL,
            note TEXT,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (subject, day)
        );

        -- The seeds' health table: one line per subject and day with glucose low/avg/high, the
        -- hypo/hyper/exercise/stress/illness icons and the favourite star.
        CREATE VIEW day_log AS
        SELECT d.subject AS subject,
               d.day AS day,
               g.min AS low,
               g.mean AS avg,
               g.max AS high,
               g.unit AS unit,
               g.n AS readings,
               COALESCE(g.hypo, 0) AS hypo,
               COALESCE(g.hyper, 0) AS hyper,
               MAX(d.exercise_min) > 0 AS exercise,
               MAX(d.stress) AS stress,
               MAX(d.illness) AS illness,
               EXISTS (SELECT 1 FROM favourites f WHERE f.subject = d.subject AND f.day = d.day) AS favourite
        FROM daily_summaries d
        LEFT JOIN daily_summaries g ON g.subject = d.subject AND g.day = d.day AND g.metric = 'glucose'
        GROUP BY d.subject, d.day;
        """)
}
