/// PostgreSQL schema version 1: the SQLite schema's tables for what the `postgres` sink stores, with
/// the same names, columns and natural keys (docs/schema.md), so one query runs on both: INTEGER →
/// bigint, REAL → double precision, TEXT → text with the byte-order "C" collation (the order SQLite
/// sorts in). Booleans stay integers 0/1 as in SQLite. `derived_pending` lists subjects (not days)
/// whose derived rows wait for a refresh (docs/scale-out.md).
enum PostgresSchemaV1 {
    static let migration = PostgresMigration(version: 1, name: "HealthPipe tables, keys as in SQLite", sql: """
        CREATE TABLE imports (
            id bigserial PRIMARY KEY,
            path text COLLATE "C" NOT NULL UNIQUE,
            format text NOT NULL DEFAULT '',
            size bigint,
            hash text NOT NULL DEFAULT '',
            first_started_at bigint NOT NULL,
            started_at bigint NOT NULL,
            finished_at bigint,
            status text NOT NULL,
            runs integer NOT NULL DEFAULT 1,
            rows_read bigint NOT NULL DEFAULT 0,
            measurements bigint NOT NULL DEFAULT 0,
            events bigint NOT NULL DEFAULT 0,
            rejected bigint NOT NULL DEFAULT 0,
            new_rows bigint NOT NULL DEFAULT 0
        );

        CREATE TABLE devices (
            id bigserial PRIMARY KEY,
            attributes text COLLATE "C" NOT NULL UNIQUE,
            name text GENERATED ALWAYS AS (attributes::jsonb ->> 'name') STORED,
            manufacturer text GENERATED ALWAYS AS (attributes::jsonb ->> 'manufacturer') STORED,
            model text GENERATED ALWAYS AS (attributes::jsonb ->> 'model') STORED,
            hardware text GENERATED ALWAYS AS (attributes::jsonb ->> 'hardware') STORED,
            software text GENERATED ALWAYS AS (attributes::jsonb ->> 'software') STORED
        );

        CREATE TABLE measurements (
            subject text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            source text COLLATE "C" NOT NULL,
            start bigint NOT NULL,
            "end" bigint NOT NULL,
            value double precision NOT NULL,
            utc_offset integer NOT NULL,
            unit text NOT NULL,
            flags integer NOT NULL DEFAULT 0,
            band text,
            import_id bigint,
            line bigint,
            metadata text,
            device_id bigint,
            PRIMARY KEY (subject, metric, source, start, "end")
        );

        CREATE TABLE events (
            subject text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL,
            subtype text COLLATE "C" NOT NULL DEFAULT '',
            source text COLLATE "C" NOT NULL,
            start bigint NOT NULL,
            amount double precision NOT NULL DEFAULT 0,
            "end" bigint NOT NULL,
            utc_offset integer NOT NULL,
            carbs_g double precision,
            protein_g double precision,
            fat_g double precision,
            insulin_u double precision,
            intensity text,
            note text,
            flags integer NOT NULL DEFAULT 0,
            import_id bigint,
            line bigint,
            metadata text,
            device_id bigint,
            PRIMARY KEY (subject, kind, subtype, source, start, amount)
        );
        CREATE INDEX events_by_time ON events (subject, start);

        CREATE TABLE subject_profiles (
            subject text COLLATE "C" NOT NULL,
            source text COLLATE "C" NOT NULL,
            date_of_birth text,
            biological_sex text,
            blood_type text,
            skin_type text,
            attributes text NOT NULL,
            import_id bigint,
            PRIMARY KEY (subject, source)
        );

        CREATE TABLE daily_summaries (
            subject text COLLATE "C" NOT NULL,
            day text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            unit text NOT NULL,
            n integer NOT NULL,
            min double precision,
            max double precision,
            mean double precision,
            sd double precision,
            hypo integer NOT NULL,
            hyper integer NOT NULL,
            carbs_g double precision NOT NULL,
            insulin_u double precision NOT NULL,
            exercise_min double precision NOT NULL,
            illness integer NOT NULL,
            stress integer NOT NULL,
            PRIMARY KEY (subject, day, metric)
        );

        CREATE TABLE daily_bands (
            subject text COLLATE "C" NOT NULL,
            day text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            band text COLLATE "C" NOT NULL,
            percent double precision NOT NULL,
            PRIMARY KEY (subject, day, metric, band)
        );

        CREATE TABLE glucose_metrics (
            subject text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            period_start text COLLATE "C" NOT NULL,
            period_end text COLLATE "C" NOT NULL,
            name text COLLATE "C" NOT NULL,
            value double precision NOT NULL,
            unit text NOT NULL,
            PRIMARY KEY (subject, metric, period_start, period_end, name)
        );

        CREATE TABLE glucose_agp (
            subject text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            period_start text COLLATE "C" NOT NULL,
            period_end text COLLATE "C" NOT NULL,
            minute_of_day integer NOT NULL,
            n integer NOT NULL,
            p05 double precision NOT NULL,
            p25 double precision NOT NULL,
            p50 double precision NOT NULL,
            p75 double precision NOT NULL,
            p95 double precision NOT NULL,
            PRIMARY KEY (subject, metric, period_start, period_end, minute_of_day)
        );

        CREATE TABLE forecasts (
            subject text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            model text COLLATE "C" NOT NULL,
            issued_at bigint NOT NULL,
            at bigint NOT NULL,
            utc_offset integer NOT NULL,
            value double precision NOT NULL,
            PRIMARY KEY (subject, metric, model, issued_at, at)
        );

        CREATE TABLE alerts (
            subject text COLLATE "C" NOT NULL,
            metric text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL,
            start bigint NOT NULL,
            "end" bigint NOT NULL,
            utc_offset integer NOT NULL,
            duration_min double precision NOT NULL,
            value double precision NOT NULL,
            threshold double precision NOT NULL,
            model text NOT NULL DEFAULT '',
            PRIMARY KEY (subject, metric, kind, start)
        );

        CREATE TABLE favourites (
            subject text COLLATE "C" NOT NULL,
            day text COLLATE "C" NOT NULL,
            note text,
            created_at bigint NOT NULL,
            PRIMARY KEY (subject, day)
        );

        CREATE TABLE derivation_settings (
            step text PRIMARY KEY,
            options text NOT NULL,
            fingerprint text NOT NULL
        );

        CREATE TABLE derived_pending (
            subject text COLLATE "C" PRIMARY KEY
        );

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
               (MAX(d.exercise_min) > 0)::integer AS exercise,
               MAX(d.stress) AS stress,
               MAX(d.illness) AS illness,
               EXISTS (SELECT 1 FROM favourites f WHERE f.subject = d.subject AND f.day = d.day)::integer AS favourite
        FROM daily_summaries d
        LEFT JOIN daily_summaries g ON g.subject = d.subject AND g.day = d.day AND g.metric = 'glucose'
        GROUP BY d.subject, d.day, g.min, g.mean, g.max, g.unit, g.n, g.hypo, g.hyper;
        """)
}
