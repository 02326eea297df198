import Foundation
import PostgresStore
import Testing

/// A new PostgreSQL store is created straight at the current version from the table description
/// (`StoreTables` → `PostgresDDL.baseline`); an older one takes the migration steps. Both must have the
/// same schema as PostgreSQL reports it: columns (type, nullability, default, collation, generation),
/// indexes (incl. the keys') and views, read from information_schema, pg_indexes and pg_views.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresSchemaBaselineTests {
    static func shape(_ server: PostgresServer, _ database: String) throws -> [String] {
        let columns = try server.query(database, """
            SELECT table_name, ordinal_position, column_name, data_type, is_nullable, coalesce(column_default, ''),
                   coalesce(collation_name, ''), is_generated, coalesce(generation_expression, '')
              FROM information_schema.columns WHERE table_schema = 'public'
            """)
        let indexes = try server.query(database, "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
        let views = try server.query(database, "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public'")
        let constraints = try server.query(database, """
            SELECT table_name, constraint_name, constraint_type FROM information_schema.table_constraints
             WHERE table_schema = 'public' AND constraint_type <> 'CHECK'
            """)
        return (columns.map { "column " + $0.joined(separator: " ") } + indexes.map { "index " + $0.joined(separator: " ") }
            + views.map { "view " + $0.joined(separator: " ") } + constraints.map { "constraint " + $0.joined(separator: " ") }).sorted()
    }

    @Test func aBaselineStoreEqualsOneMigratedFromVersion1() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("baseline")
        try server.createDatabase("migrated")
        _ = try PostgresSchema.open(PostgresURL(server.url("baseline")))

        // Version 1 as a build of that version left it, then the current migrator.
        let old = try PGConnection(PostgresURL(server.url("migrated")))
        try old.execute("""
            CREATE TABLE healthpipe_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
            \(PostgresSchema.migrations[0].sql);
            INSERT INTO healthpipe_migrations (version, name) VALUES (1, 'v1');
            """)
        try PostgresSchema.migrate(old)
        #expect(try server.scalar("migrated", "SELECT max(version) FROM healthpipe_migrations") == String(PostgresSchema.version))
        #expect(try server.scalar("baseline", "SELECT max(version) FROM healthpipe_migrations") == String(PostgresSchema.version))

        let a = try Self.shape(server, "baseline"), b = try Self.shape(server, "migrated")
        #expect(a.count > 200, "the dump sees every table's columns and indexes")
        #expect(a.filter { !b.contains($0) } == [], "only in the baseline")
        #expect(b.filter { !a.contains($0) } == [], "only in the migrated store")
        // The baseline made it, not the steps (version 1 declared `path` UNIQUE inline; the dump cannot tell).
        #expect(try server.scalar("baseline", "SELECT name FROM healthpipe_migrations") == "current schema (baseline)")
    }

    /// Version 4 moves the readings under series ids: a version-3 store's rows read back the same
    /// through the `measurements` view and `brushing_sessions`, each (subject, metric, source) is stored
    /// once, and a series made after the step takes the next id.
    @Test func version3ReadingsReadTheSameAfterVersion4() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("v3")
        let old = try PGConnection(PostgresURL(server.url("v3")))
        try old.execute("""
            CREATE TABLE healthpipe_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
            \(PostgresSchema.migrations[0].sql);
            \(PostgresSchema.migrations[1].sql);
            \(PostgresSchema.migrations[2].sql);
            INSERT INTO healthpipe_migrations (version, name) VALUES (1, 'v1'), (2, 'v2'), (3, 'v3');
            INSERT INTO measurements (subject, metric, source, start, "end", value, utc_offset, unit, flags, band, import_id, line,
                                      metadata, device_id) VALUES
              ('ann', 'glucose', 'Dexcom', 1000, 1000, 99.5, 3600, 'mg/dL', 0, 'in_range', 1, 12, NULL, 3),
              ('ann', 'glucose', 'Dexcom', 1300, 1300, 250, 3600, 'mg/dL', 0, 'high', 1, 13, '{"a":1}', NULL),
              ('ann', 'glucose', 'Dexcom', 1300, 1600, 251, 3600, 'mg/dL', 0, 'high', 1, 14, NULL, NULL),
              ('ann', 'glucose', 'resampled', 900, 900, 101, 3600, 'mg/dL', 128, NULL, NULL, NULL, NULL, NULL),
              ('bob', 'toothbrushing', 'Oral-B', 5000, 5120, 120, 0, 's', 0, NULL, 2, 4, NULL, NULL),
              ('bob', 'heart_rate', 'Apple Watch', 5000, 5000, 61, -18000, 'count/min', 0, NULL, 2, 5, NULL, NULL);
            """)
        let readings = "SELECT * FROM measurements ORDER BY subject, metric, source, start, \"end\""
        let brushing = "SELECT * FROM brushing_sessions ORDER BY subject, start"
        let before = try server.query("v3", readings), brushedBefore = try server.query("v3", brushing)
        #expect(before.count == 6 && brushedBefore.count == 1)
        try PostgresSchema.migrate(old)
        #expect(try server.scalar("v3", "SELECT max(version) FROM healthpipe_migrations") == String(PostgresSchema.version))
        #expect(try server.query("v3", readings) == before)
        #expect(try server.query("v3", brushing) == brushedBefore)
        #expect(try server.scalar("v3", "SELECT count(*) FROM measurement_series") == "4")
        #expect(try server.scalar("v3", "SELECT count(*) FROM measurement_rows") == "6")
        #expect(try server.scalar("v3", "INSERT INTO measurement_series (subject, metric, source) VALUES ('cat', 'glucose', 'Dexcom') RETURNING id") == "5")
    }
}
