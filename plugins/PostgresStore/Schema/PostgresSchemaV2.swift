/// PostgreSQL schema version 2: what an Apple Health export's side files and a motion stream bring —
/// SQLite's `workout_routes` + `route_points`, `electrocardiograms` + `ecg_samples` (its v8) and
/// `motion_sessions` with `import_id` (its v5 and v10), with the `brushing_sessions` view: the same
/// columns and natural keys, typed as in version 1. Ids are `bigserial` where SQLite's are rowids;
/// points and samples name their route or recording without a foreign-key constraint, as SQLite
/// (foreign keys off) and `device_id` here do.
enum PostgresSchemaV2 {
    static let migration = PostgresMigration(version: 2, name: "workout routes, electrocardiograms, motion sessions", sql: """
        CREATE TABLE workout_routes (
            id bigserial PRIMARY KEY,
            subject text COLLATE "C" NOT NULL,
            source text COLLATE "C" NOT NULL,
            start bigint NOT NULL,
            name text COLLATE "C" NOT NULL,
            "end" bigint NOT NULL,
            utc_offset integer NOT NULL,
            workout_start bigint,
            points integer NOT NULL,
            device_id bigint,
            import_id bigint,
            line bigint,
            UNIQUE (subject, source, start, name)
        );
        CREATE INDEX workout_routes_by_workout ON workout_routes (subject, source, workout_start);

        CREATE TABLE route_points (
            route_id bigint NOT NULL,
            seq integer NOT NULL,
            time_ms bigint NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            elevation double precision,
            speed double precision,
            course double precision,
            horizontal_accuracy double precision,
            vertical_accuracy double precision,
            PRIMARY KEY (route_id, seq)
        );

        CREATE TABLE electrocardiograms (
            id bigserial PRIMARY KEY,
            subject text COLLATE "C" NOT NULL,
            source text COLLATE "C" NOT NULL,
            start bigint NOT NULL,
            "end" bigint NOT NULL,
            utc_offset integer NOT NULL,
            classification text,
            symptoms text,
            average_heart_rate double precision,
            sampling_hz double precision NOT NULL,
            lead text,
            samples integer NOT NULL,
            metadata text,
            device_id bigint,
            import_id bigint,
            line bigint,
            UNIQUE (subject, source, start)
        );

        CREATE TABLE ecg_samples (
            ecg_id bigint NOT NULL,
            seq integer NOT NULL,
            microvolts double precision NOT NULL,
            PRIMARY KEY (ecg_id, seq)
        );

        CREATE TABLE motion_sessions (
            subject text COLLATE "C" NOT NULL,
            device text COLLATE "C" NOT NULL,
            start_ms bigint NOT NULL,
            source text COLLATE "C" NOT NULL,
            end_ms bigint NOT NULL,
            start bigint NOT NULL,
            "end" bigint NOT NULL,
            utc_offset integer NOT NULL,
            duration_s double precision NOT NULL,
            active_s double precision NOT NULL,
            average double precision NOT NULL,
            accomplishment double precision NOT NULL,
            samples bigint NOT NULL,
            end_reason text NOT NULL,
            year integer NOT NULL,
            month integer NOT NULL,
            day integer NOT NULL,
            time text NOT NULL,
            day_of_week integer NOT NULL,
            days_in_month integer NOT NULL,
            line bigint,
            import_id bigint,
            PRIMARY KEY (subject, device, start_ms)
        );
        CREATE INDEX motion_sessions_by_time ON motion_sessions (subject, start);

        CREATE VIEW brushing_sessions AS
        SELECT subject, start, "end", utc_offset, average, accomplishment, device AS origin, 'motion' AS kind
          FROM motion_sessions
        UNION ALL
        SELECT subject, start, "end", utc_offset, NULL, NULL, source, 'measurement'
          FROM measurements WHERE metric IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent')
        UNION ALL
        SELECT subject, start, "end", utc_offset, NULL, NULL, source, 'event'
          FROM events WHERE subtype IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent');
        """)
}
