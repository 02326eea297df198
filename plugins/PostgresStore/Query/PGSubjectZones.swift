import HealthPipeCore

/// `subject_zones` of a PostgreSQL store, as SQLite's `SubjectZones`: each person's zone history.
public enum PGSubjectZones {
    public static func periods(subject: String, url: PostgresURL) throws -> [ZoneHistory.Period] {
        let db = try PostgresSchema.open(url)
        let rows = try db.query("SELECT effective_from, zone FROM subject_zones WHERE subject = $1 ORDER BY effective_from", [subject])
        return (0..<rows.count).map { ZoneHistory.Period(from: rows.int($0, 0), zone: rows.text($0, 1) ?? "") }
    }

    /// Sets the subject's zone from `from` on (replacing a change at the same instant).
    public static func set(subject: String, zone: String, from: Int64, now: Int64, url: PostgresURL) throws {
        let db = try PostgresSchema.open(url)
        try db.query("""
            INSERT INTO subject_zones (subject, effective_from, zone, set_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (subject, effective_from) DO UPDATE SET zone = excluded.zone, set_at = excluded.set_at
            """, [subject, String(from), zone, String(now)])
    }

    /// Gives the subject `zone` since always when they have no zone yet; true when it did.
    @discardableResult
    public static func adopt(subject: String, zone: String, now: Int64, url: PostgresURL) throws -> Bool {
        let db = try PostgresSchema.open(url)
        let rows = try db.query("""
            INSERT INTO subject_zones (subject, effective_from, zone, set_at)
            SELECT $1::text, $2::bigint, $3::text, $4::bigint WHERE NOT EXISTS (SELECT 1 FROM subject_zones WHERE subject = $1)
            ON CONFLICT DO NOTHING RETURNING 1
            """, [subject, String(ZoneHistory.always), zone, String(now)])
        return rows.count > 0
    }
}
