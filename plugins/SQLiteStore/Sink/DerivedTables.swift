import HealthPipeCore

/// Tables that hold only values computed from measurements and events. `healthpipe reaggregate`
/// empties them and recomputes them in one transaction; a refresh replaces the rows of pending days.
/// User tables (`favourites`) and imported data are never touched. A feature that adds a derived
/// table appends it here (and to the scoped deletes below).
public enum DerivedTables {
    public static let names = ["daily_summaries", "daily_bands", "glucose_metrics", "glucose_agp", "forecasts", "alerts",
                               "report_days"]
    /// Measurements that are derived too: the `resample` grid (RecordFlags.interpolated). The one
    /// place SQL tells grid rows from readings.
    public static let interpolatedMeasurements = "(flags & \(RecordFlags.interpolated.rawValue)) != 0"
    /// Stored readings: every measurement that is not a grid point.
    public static let readingMeasurements = "(flags & \(RecordFlags.interpolated.rawValue)) = 0"

    /// The rows of one (subject ?1, local day ?2).
    static let dayDeletes = [
        "DELETE FROM daily_summaries WHERE subject = ?1 AND day = ?2",
        "DELETE FROM daily_bands WHERE subject = ?1 AND day = ?2",
    ]
    /// The same for the tables keyed (subject, metric, period…): once per stored metric ?3, so each
    /// is a seek (without the metric SQLite read every period row of the subject, for each day).
    static let dayDeletesByMetric = [
        (table: "glucose_metrics", sql: "DELETE FROM glucose_metrics WHERE subject = ?1 AND metric = ?3 AND period_start = ?2 AND period_end = ?2"),
        (table: "glucose_agp", sql: "DELETE FROM glucose_agp WHERE subject = ?1 AND metric = ?3 AND period_start = ?2 AND period_end = ?2"),
    ]
    /// The rows of a subject ?1 that depend on its whole history.
    static let subjectDeletes = [
        "DELETE FROM glucose_metrics WHERE subject = ?1 AND period_start != period_end",
        "DELETE FROM glucose_agp WHERE subject = ?1 AND period_start != period_end",
        "DELETE FROM forecasts WHERE subject = ?1",
        "DELETE FROM alerts WHERE subject = ?1",
    ]
    /// What the `reports` step derives from a subject ?1's stored reports: replaced for every subject
    /// with a pending day, whatever else the refresh reads (a subject's reports are few).
    static let reportSubjectDeletes = [
        "DELETE FROM report_days WHERE subject = ?1",
        "DELETE FROM alerts WHERE subject = ?1 AND kind IN (\(Alert.Kind.reportKinds.map { "'\($0.rawValue)'" }.joined(separator: ", ")))",
    ]
    /// What the `reports` step derives, of every subject: replaced when only the report settings change.
    static let reportDeletes = [
        "DELETE FROM report_days",
        "DELETE FROM alerts WHERE kind IN (\(Alert.Kind.reportKinds.map { "'\($0.rawValue)'" }.joined(separator: ", ")))",
    ]
    /// Grid rows of (subject ?1, metric ?6, source ?7) whose local time lies in [?2, ?3], found
    /// through the key with start in [?4, ?5].
    static let gridDelete = """
        DELETE FROM measurements WHERE subject = ?1 AND metric = ?6 AND source = ?7 AND start BETWEEN ?4 AND ?5
          AND start + utc_offset BETWEEN ?2 AND ?3 AND \(interpolatedMeasurements)
        """
}
