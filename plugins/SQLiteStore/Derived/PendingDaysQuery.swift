import Foundation

/// Reads `derived_pending` without changing the database.
public enum PendingDaysQuery {
    /// True when the database has days whose derived rows are not up to date.
    public static func any(path: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        guard try Migrator.version(of: db) >= SchemaV7.migration.version else { return true }
        return try db.scalarInt("SELECT EXISTS (SELECT 1 FROM derived_pending)") == 1
    }

    /// The number of pending (subject, day)s.
    public static func count(path: String) throws -> Int {
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        guard try Migrator.version(of: db) >= SchemaV7.migration.version else { return 0 }
        return Int(try db.scalarInt("SELECT count(*) FROM derived_pending") ?? 0)
    }
}
