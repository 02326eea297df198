/// The distinct subjects of tables whose primary key (or first unique key) starts with `subject`, found by a recursive walk
/// of the key: one probe per subject (PostgreSQL has no skip scan), so a ten-year store costs what a
/// new one does — never a DISTINCT over the whole table. SQLite's `SubjectWalk` is the same walk.
enum PGSubjectWalk {
    /// `name(subject)`: the subjects of `table`, for a `WITH RECURSIVE` clause.
    static func cte(_ name: String, of table: String) -> String {
        """
        \(name)(subject) AS (
            (SELECT subject FROM \(table) ORDER BY subject LIMIT 1)
            UNION ALL
            SELECT n.subject FROM \(name), LATERAL (SELECT subject FROM \(table) t WHERE t.subject > \(name).subject
                                                    ORDER BY subject LIMIT 1) n
        )
        """
    }

    /// Every subject with readings or events, sorted by bytes (a PostgreSQL store keeps no health
    /// reports, manual entries or motion sessions).
    static func all(_ db: PGConnection) throws -> [String] {
        // A series left without readings names no subject (`PGSeries`).
        let rows = try db.query("WITH RECURSIVE " + cte("m", of: "measurement_series") + ", " + cte("e", of: "events") + """
             SELECT subject FROM m WHERE \(PGSeriesSQL.subjectHasReadings("m.subject"))
             UNION SELECT subject FROM e ORDER BY 1
            """)
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }
}
