/// PostgreSQL schema version 5: each person's zone over time (`subject_zones`, as SQLite's version 11).
enum PostgresSchemaV5 {
    static let migration = PostgresMigration(version: 5, name: "each person's zone", sql: """
        CREATE TABLE subject_zones (
            subject text COLLATE "C" NOT NULL,
            effective_from bigint NOT NULL,
            zone text NOT NULL,
            set_at bigint NOT NULL,
            PRIMARY KEY (subject, effective_from)
        );
        """)
}
