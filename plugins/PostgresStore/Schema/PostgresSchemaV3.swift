/// PostgreSQL schema version 3: `derived_pending` lists (subject, local day) as SQLite's does, so the
/// refresh after an import re-derives the days a run changed instead of whole subjects. `day` is the
/// ISO local day, or `*` for a subject pending as a whole (a changed episode, which may reach any later
/// day; and what version 2 listed, which carries over so).
enum PostgresSchemaV3 {
    static let migration = PostgresMigration(version: 3, name: "derived_pending by day", sql: """
        ALTER TABLE derived_pending ADD COLUMN day text COLLATE "C" NOT NULL DEFAULT '*';
        ALTER TABLE derived_pending ALTER COLUMN day DROP DEFAULT;
        ALTER TABLE derived_pending DROP CONSTRAINT derived_pending_pkey;
        ALTER TABLE derived_pending ADD PRIMARY KEY (subject, day);
        """)
}
