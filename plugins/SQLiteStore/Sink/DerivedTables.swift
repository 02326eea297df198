/// Tables that hold only values computed from measurements and events. `healthpipe reaggregate`
/// empties them and recomputes them in one transaction; user tables (`favourites`) and imported
/// data are never touched. A feature that adds a derived table appends it here.
public enum DerivedTables {
    public static let names = ["daily_summaries", "daily_bands", "glucose_metrics", "glucose_agp", "forecasts", "alerts"]
    /// Measurements that are derived too: the `resample` grid (RecordFlags.interpolated).
    public static let interpolatedMeasurements = "flags & 128 != 0"
}
