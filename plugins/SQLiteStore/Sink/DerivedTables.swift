/// Tables that hold only values computed from measurements and events. `healthpipe reaggregate`
/// empties them and recomputes them in one transaction; user tables (`favourites`) and imported
/// data are never touched. A feature that adds a derived table appends it here.
public enum DerivedTables {
    public static let names = ["daily_summaries", "daily_bands", "forecasts", "alerts"]
}
