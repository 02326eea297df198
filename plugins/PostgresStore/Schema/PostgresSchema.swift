/// One step of the PostgreSQL schema history; released steps are never edited.
public struct PostgresMigration: Sendable {
    public var version: Int
    public var name: String
    public var sql: String
}

/// The HealthPipe tables in PostgreSQL and their migrations, tracked in `healthpipe_migrations`
/// (version, name, applied_at). Many executors may open the store at once: the migration runs in
/// one transaction under an advisory lock, so exactly one applies each step and the others see it
/// done; a store from a newer build is refused before anything is touched. A new store is created straight
/// at the current version from `StoreTables` (`PostgresDDL.baseline`); an older one takes the steps after its version.
public enum PostgresSchema {
    public static let migrations = [PostgresSchemaV1.migration, PostgresSchemaV2.migration, PostgresSchemaV3.migration,
                                     PostgresSchemaV4.migration, PostgresSchemaV5.migration, PostgresSchemaV6.migration]
    public static var version: Int { migrations.last?.version ?? 0 }
    /// pg_advisory_xact_lock key: "HPmigr" in ASCII.
    static let lockKey: Int64 = 0x4850_6D69_6772

    /// Connects and brings the store to the current schema.
    public static func open(_ url: PostgresURL) throws -> PGConnection {
        let db = try PGConnection(url)
        try migrate(db)
        return db
    }

    public static func migrate(_ db: PGConnection) throws {
        if try storedVersion(db) == version { return }
        try db.transaction {
            try db.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
            try db.execute("""
                CREATE TABLE IF NOT EXISTS healthpipe_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let found = try storedVersion(db) ?? 0
            if found > version {
                throw PGError(message: "\(db.url.shown): the HealthPipe tables are at schema version \(found), newer than this "
                              + "build knows (\(version)); use a newer healthpipe")
            }
            if found == 0 {
                try db.execute(PostgresDDL.baseline)
                try db.query("INSERT INTO healthpipe_migrations (version, name) VALUES ($1, $2)",
                             [String(version), "current schema (baseline)"])
                return
            }
            for step in migrations where step.version > found {
                try db.execute(step.sql)
                try db.query("INSERT INTO healthpipe_migrations (version, name) VALUES ($1, $2)", [String(step.version), step.name])
            }
        }
    }

    /// The newest applied version; nil when the store has no HealthPipe tables yet.
    static func storedVersion(_ db: PGConnection) throws -> Int? {
        let exists = try db.query("SELECT to_regclass('healthpipe_migrations') IS NOT NULL")
        guard exists.text(0, 0) == "t" else { return nil }
        return try db.query("SELECT max(version) FROM healthpipe_migrations").text(0, 0).flatMap { Int($0) }
    }
}
