/// One step of the schema history. Steps are never edited once released: a change is a new step.
public struct Migration: Sendable {
    public var version: Int32
    public var name: String
    public var sql: String
    public init(version: Int32, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// Brings a database to the newest schema version, tracked in `PRAGMA user_version`, and refuses
/// a database written by a newer build (it might hold tables this build would corrupt). A new, empty
/// database is created straight at the newest version by the `baseline` (GRDB's merged migrations),
/// when there is one; an older database takes the steps after its version.
public struct Migrator: Sendable {
    public let migrations: [Migration]
    /// The SQL of the newest version's schema, for an empty database.
    public let baseline: String?
    public var latestVersion: Int32 { migrations.last?.version ?? 0 }

    public init(migrations: [Migration], baseline: String? = nil) {
        self.baseline = baseline
        // Strictly increasing (versions are assigned per feature branch, so one may land before another).
        precondition(migrations.first.map { $0.version >= 1 } ?? true
                     && zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
                     "migration versions must increase")
        self.migrations = migrations
    }

    public static func version(of db: SQLiteConnection) throws -> Int32 {
        Int32(truncatingIfNeeded: try db.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// Throws `SQLiteSchemaError` before touching anything when the database is newer than we know.
    public func checkSupported(_ db: SQLiteConnection) throws {
        let found = try Self.version(of: db)
        if found > latestVersion { throw SQLiteSchemaError(path: db.path, found: found, supported: latestVersion) }
    }

    /// Applies every step newer than the database's version, all in one transaction, so a crash
    /// mid-migration leaves the old schema intact. Returns the version it started from.
    @discardableResult
    public func migrate(_ db: SQLiteConnection) throws -> Int32 {
        try db.transaction {
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let found = try Self.version(of: db)
            if found > latestVersion { throw SQLiteSchemaError(path: db.path, found: found, supported: latestVersion) }
            if found == 0, let baseline, try db.scalarInt("SELECT count(*) FROM sqlite_schema") == 0 {
                try db.execute(baseline)
                try db.execute("PRAGMA user_version = \(latestVersion)")
                return found
            }
            for step in migrations where step.version > found {
                try db.execute(step.sql)
                try db.execute("PRAGMA user_version = \(step.version)")
            }
            return found
        }
    }
}
