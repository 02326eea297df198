@testable import SQLiteStore

/// A database at the schema before `version` (every migration step older than it), to test that step on data it finds.
func databaseBefore(version: Int32, at path: String) throws -> SQLiteConnection {
    let older = Migrator(migrations: Array(SQLiteSchema.migrator.migrations.prefix { $0.version < version }))
    let db = try SQLiteConnection(path: path)
    try older.migrate(db)
    return db
}
