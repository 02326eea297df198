/// Every table and view of a HealthPipe store, described once (docs/schema.md). The SQLite and
/// PostgreSQL stores make their DDL, their baseline for new databases and their writers' column
/// lists from these values; the migrations under each store's `Schema/` are the history that brings
/// an older database to the same schema (a test compares the two).
public enum StoreTables {
    /// In the order a baseline creates them.
    public static let all: [TableDescription] = [
        imports, devices, measurements, measurementSeries, measurementRows, supersededMeasurements, events, subjectProfiles, subjectZones,
        dailySummaries, dailyBands, favourites, glucoseMetrics, glucoseAGP, forecasts, alerts,
        motionSessions, derivedPending, derivationSettings,
        workoutRoutes, routePoints, electrocardiograms, ecgSamples,
        reports, reportValues, manualEntries, reportDays, reminderSnoozes, alertNotices, deletedRows, foods,
    ]

    /// In the order a baseline creates them (a view before those that read it).
    public static let views: [ViewDescription] = [measurementsView, dayLog, brushingSessions]

    public static func tables(in dialect: StoreDialect) -> [TableDescription] { all.filter { $0.dialects.contains(dialect) } }

    public static func views(in dialect: StoreDialect) -> [ViewDescription] { views.filter { $0.dialects.contains(dialect) } }
}
