/// The views: PostgreSQL's readings by name, the seeds' day log, and every toothbrushing session whatever its origin.
extension StoreTables {
    /// PostgreSQL's readings with their series' names: the columns of SQLite's `measurements` table, so
    /// a query of readings reads the same on either store.
    public static let measurementsView = ViewDescription("measurements", postgresOnly: """
        SELECT s.subject, s.metric, s.source, r.start, r."end", r.value, r.utc_offset, r.unit, r.flags, r.band,
               r.import_id, r.line, r.metadata, r.device_id
          FROM measurement_rows r JOIN measurement_series s ON s.id = r.series
        """)

    /// One line per subject and day: glucose low/avg/high, the hypo/hyper/exercise/stress/illness
    /// icons and the favourite star. PostgreSQL needs its booleans as integers and the grouped columns named.
    public static let dayLog = ViewDescription("day_log", sqlite: dayLogSelect(integer: { $0 }, groupedBy: ""),
                                               postgres: dayLogSelect(integer: { "(\($0))::integer" },
                                                                      groupedBy: ", g.min, g.mean, g.max, g.unit, g.n, g.hypo, g.hyper"))

    /// `day_log`'s SELECT, with a dialect's way of making a truth value an integer and its extra grouped columns.
    static func dayLogSelect(integer: (String) -> String, groupedBy extra: String) -> String {
        """
        SELECT d.subject AS subject,
               d.day AS day,
               g.min AS low,
               g.mean AS avg,
               g.max AS high,
               g.unit AS unit,
               g.n AS readings,
               COALESCE(g.hypo, 0) AS hypo,
               COALESCE(g.hyper, 0) AS hyper,
               \(integer("MAX(d.exercise_min) > 0")) AS exercise,
               MAX(d.stress) AS stress,
               MAX(d.illness) AS illness,
               \(integer("EXISTS (SELECT 1 FROM favourites f WHERE f.subject = d.subject AND f.day = d.day)")) AS favourite
        FROM daily_summaries d
        LEFT JOIN daily_summaries g ON g.subject = d.subject AND g.day = d.day AND g.metric = 'glucose'
        GROUP BY d.subject, d.day\(extra)
        """
    }

    /// The stream's sessions plus Apple Health toothbrushing records stored as measurements (metric
    /// 'toothbrushing', start/end) or events (subtype 'toothbrushing').
    public static let brushingSessions = ViewDescription("brushing_sessions", select: """
        SELECT subject, start, "end", utc_offset, average, accomplishment, device AS origin, 'motion' AS kind
          FROM motion_sessions
        UNION ALL
        SELECT subject, start, "end", utc_offset, NULL, NULL, source, 'measurement'
          FROM measurements WHERE metric IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent')
        UNION ALL
        SELECT subject, start, "end", utc_offset, NULL, NULL, source, 'event'
          FROM events WHERE subtype IN ('toothbrushing', 'HKCategoryTypeIdentifierToothbrushingEvent')
        """)
}
