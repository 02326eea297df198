/// How the store's own queries reach readings by series. Never through the `measurements` view: a
/// filter on the series' names there lets the planner hash-join the whole of `measurement_rows` (800 ms
/// on 3M readings for one subject). Each series is probed by the readings' key instead — a LATERAL
/// with LIMIT 1, which the planner cannot turn into a scan.
enum PGSeriesSQL {
    /// `measurement_series ser` rows matching `condition` that hold at least one reading.
    static func withReadings(_ condition: String) -> String {
        "measurement_series ser, LATERAL (SELECT 1 FROM measurement_rows r WHERE r.series = ser.id LIMIT 1) held WHERE \(condition)"
    }

    /// `g(series, metric, source)`: subject $1's series that hold readings, in (metric, source) order, so a
    /// day's rows are then read through each one's key instead of a scan of everything the subject has.
    static let subjectSeriesCTE = """
        WITH g(series, metric, source) AS (
            SELECT ser.id, ser.metric, ser.source FROM \(PGSeriesSQL.withReadings("ser.subject = $1")) ORDER BY ser.metric, ser.source
        )
        """

    /// Whether subject `subject` (an SQL expression) holds any reading.
    static func subjectHasReadings(_ subject: String) -> String {
        "EXISTS (SELECT 1 FROM \(withReadings("ser.subject = \(subject)")))"
    }
}
