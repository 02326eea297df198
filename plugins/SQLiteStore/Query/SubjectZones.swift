import Foundation
import HealthPipeCore

/// `subject_zones` of a SQLite store: each person's zone history (`ZoneHistory`), read by every
/// command and screen that reads or writes a typed time, written by `healthpipe person` and by the
/// first `import --timezone` of a person who has none.
public enum SubjectZones {
    /// The subject's periods, oldest first; none in a database made before the table existed.
    public static func periods(subject: String, in db: SQLiteConnection) throws -> [ZoneHistory.Period] {
        guard try Migrator.version(of: db) >= SchemaV11.migration.version else { return [] }
        let s = try db.prepare("SELECT effective_from, zone FROM subject_zones WHERE subject = ?1 ORDER BY effective_from")
        try s.bindText(1, subject)
        var out: [ZoneHistory.Period] = []
        while try s.step() { out.append(ZoneHistory.Period(from: s.int(0), zone: s.text(1) ?? "")) }
        return out
    }

    /// The periods of a database file; none when it does not exist yet.
    public static func periods(subject: String, path: String) throws -> [ZoneHistory.Period] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        return try periods(subject: subject, in: db)
    }

    /// Sets the subject's zone from `from` on (replacing a change at the same instant), creating the
    /// database if needed.
    public static func set(subject: String, zone: String, from: Int64, now: Int64, path: String) throws {
        try SQLiteSink.createParentDirectory(of: path)
        let db = try SQLiteSchema.open(path: path)
        let s = try db.prepare("""
            INSERT INTO subject_zones (subject, effective_from, zone, set_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (subject, effective_from) DO UPDATE SET zone = excluded.zone, set_at = excluded.set_at
            """)
        try s.bindText(1, subject)
        try s.bindInt(2, from)
        try s.bindText(3, zone)
        try s.bindInt(4, now)
        try s.run()
    }

    /// Gives the subject `zone` since always when they have no zone yet; true when it did.
    @discardableResult
    public static func adopt(subject: String, zone: String, now: Int64, path: String) throws -> Bool {
        let db = try SQLiteSchema.open(path: path)
        let s = try db.prepare("""
            INSERT INTO subject_zones (subject, effective_from, zone, set_at)
            SELECT ?1, ?2, ?3, ?4 WHERE NOT EXISTS (SELECT 1 FROM subject_zones WHERE subject = ?1)
            """)
        try s.bindText(1, subject)
        try s.bindInt(2, ZoneHistory.always)
        try s.bindText(3, zone)
        try s.bindInt(4, now)
        try s.run()
        return db.changes > 0
    }
}
