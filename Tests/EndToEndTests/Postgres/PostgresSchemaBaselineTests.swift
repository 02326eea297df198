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
}
