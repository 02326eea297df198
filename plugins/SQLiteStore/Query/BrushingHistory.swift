import HealthPipeCore

/// Reads every toothbrushing session (stream sessions and Apple Health toothbrushing records,
/// through the `brushing_sessions` view) of a subject whose start falls in a UTC range.
public enum BrushingHistory {
    public typealias Row = BrushingSession

    /// Opens the database read-only (it must exist: a missing file is an error, not an empty
    /// history) and returns the rows with `from <= start < to` (UTC epoch seconds), oldest first.
    public static func rows(path: String, subject: String, from: Int64, to: Int64) throws -> [Row] {
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        let version = try Migrator.version(of: db)
        if version == 0 { return [] }
        // A database from before version 5 has no motion sessions, but may hold Apple rows.
        let sql = version >= 5 ? """
            SELECT start, end, utc_offset, average, accomplishment, origin, kind FROM brushing_sessions
            WHERE subject = ?1 AND start >= ?2 AND start < ?3 ORDER BY start
            """ : """
            SELECT start, end, utc_offset, NULL, NULL, source, 'measurement' FROM measurements
             WHERE metric IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent') AND subject = ?1 AND start >= ?2 AND start < ?3
            UNION ALL
            SELECT start, end, utc_offset, NULL, NULL, source, 'event' FROM events
             WHERE subtype IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent') AND subject = ?1 AND start >= ?2 AND start < ?3
            ORDER BY 1
            """
        let s = try db.prepare(sql)
        try s.bindText(1, subject)
        try s.bindInt(2, from)
        try s.bindInt(3, to)
        var rows: [Row] = []
        while try s.step() {
            rows.append(Row(start: s.int(0), end: s.int(1), utcOffset: Int32(truncatingIfNeeded: s.int(2)),
                            average: s.isNull(3) ? nil : s.double(3), accomplishment: s.isNull(4) ? nil : s.double(4),
                            origin: s.text(5) ?? "", kind: s.text(6) ?? ""))
        }
        return rows
    }

    /// The newest session's start (UTC) and offset, nil when the subject has none.
    public static func latest(path: String, subject: String) throws -> (start: Int64, utcOffset: Int32)? {
        let rows = try rows(path: path, subject: subject, from: Int64.min, to: Int64.max)
        return rows.last.map { ($0.start, $0.utcOffset) }
    }
}
