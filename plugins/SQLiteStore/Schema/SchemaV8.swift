/// Schema version 8: Apple Health side files — workout routes with their points and ECG
/// recordings with their voltages — and the canonical source of Clarity readings.
/// Creates only its own tables and touches measurements through columns every version has
/// (subject, metric, source, import_id), so it applies after any of versions 6 and 7.
enum SchemaV8 {
    static let migration = Migration(version: 8, name: "workout routes, electrocardiograms, canonical CGM source", sql: """
        CREATE TABLE workout_routes (
            id INTEGER PRIMARY KEY,
            subject TEXT NOT NULL,
            source TEXT NOT NULL,
            start INTEGER NOT NULL,          -- first point, UTC epoch seconds
            name TEXT NOT NULL,              -- the GPX file's path in the export, or 'inline'
            end INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            workout_start INTEGER,           -- start of its exercise event (events.kind = 'exercise', same subject and source)
            points INTEGER NOT NULL,
            device_id INTEGER REFERENCES devices(id),
            import_id INTEGER,
            line INTEGER,
            UNIQUE (subject, source, start, name)
        );
        CREATE INDEX workout_routes_by_workout ON workout_routes (subject, source, workout_start);

        CREATE TABLE route_points (
            route_id INTEGER NOT NULL REFERENCES workout_routes(id),
            seq INTEGER NOT NULL,            -- order in the route (points may share a time)
            time_ms INTEGER NOT NULL,        -- UTC epoch milliseconds
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            elevation REAL,                  -- m
            speed REAL,                      -- m/s
            course REAL,                     -- degrees
            horizontal_accuracy REAL,        -- m
            vertical_accuracy REAL,          -- m
            PRIMARY KEY (route_id, seq)
        ) WITHOUT ROWID;

        CREATE TABLE electrocardiograms (
            id INTEGER PRIMARY KEY,
            subject TEXT NOT NULL,
            source TEXT NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            classification TEXT,             -- Sinus Rhythm, Atrial Fibrillation, Inconclusive…
            symptoms TEXT,
            average_heart_rate REAL,         -- count/min
            sampling_hz REAL NOT NULL,
            lead TEXT,
            samples INTEGER NOT NULL,
            metadata TEXT,                   -- the file's other header lines, JSON object
            device_id INTEGER REFERENCES devices(id),
            import_id INTEGER,
            line INTEGER,
            UNIQUE (subject, source, start)
        );

        CREATE TABLE ecg_samples (
            ecg_id INTEGER NOT NULL REFERENCES electrocardiograms(id),
            seq INTEGER NOT NULL,            -- sample number; its time is start + seq / sampling_hz
            microvolts REAL NOT NULL,
            PRIMARY KEY (ecg_id, seq)
        ) WITHOUT ROWID;

        -- Clarity readings carried their uploader ('iPhone G6') as source before; the canonical CGM
        -- source is the family ('Dexcom'), so overlapping Nightscout/Tidepool imports meet them. A
        -- row whose canonical twin already exists is the same reading twice: the twin stays.
        UPDATE OR IGNORE measurements SET source = 'Dexcom'
         WHERE metric IN ('glucose', 'blood_glucose') AND source <> 'Dexcom'
           AND import_id IN (SELECT id FROM imports WHERE format = 'dexcom-clarity');
        DELETE FROM measurements
         WHERE metric IN ('glucose', 'blood_glucose') AND source <> 'Dexcom'
           AND import_id IN (SELECT id FROM imports WHERE format = 'dexcom-clarity');
        """)
}
