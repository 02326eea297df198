import HealthPipeCore

/// The columns of Google Fit's Takeout activity CSVs (`Daily activity metrics.csv`, the older
/// `Daily Summaries.csv`, and the per-day `YYYY-MM-DD.csv` of quarter hours), which Google writes in
/// whatever order and subset the account's data has: only the columns below are stored, by name.
/// The rest (latitude and longitude, speeds, minimum and maximum weight and heart rate, one
/// `<activity> duration (ms)` column per activity the person did) are not imported.
enum GoogleFitActivityColumns {
    struct Target {
        let metric: Symbol
        let unit: Symbol
        /// Multiplies the value as written into `unit` (metres → km).
        let scale: Double
    }

    /// Header name → what its values become. Distance is every distance the phone counted (walking,
    /// running and cycling alike), so it is its own metric, not Apple's walking-and-running one.
    static let targets: [String: Target] = [
        "Step count": Target(metric: Symbol("step_count"), unit: Symbol("count"), scale: 1),
        "Distance (m)": Target(metric: Symbol("distance"), unit: Symbol("km"), scale: 0.001),
        "Calories (kcal)": Target(metric: Symbol("total_energy_burned"), unit: Symbol("kcal"), scale: 1),
        "Move Minutes count": Target(metric: Symbol("active_minutes"), unit: Symbol("min"), scale: 1),
        "Heart Points": Target(metric: Symbol("google_fit.heart_points"), unit: Symbol("count"), scale: 1),
        "Heart Minutes": Target(metric: Symbol("google_fit.heart_minutes"), unit: Symbol("min"), scale: 1),
        "Average weight (kg)": Target(metric: Symbol("body_mass"), unit: Symbol("kg"), scale: 1),
    ]

    /// The two layouts: one row per local day, or the quarter hours of the day the file is named for.
    enum Layout { case daily, quarterHours }

    /// The layout a header shows, and per stored column its index and target; nil when the header is
    /// not Google Fit's: `Date` (or `Start time,End time`) first, then at least two of its value columns.
    static func resolve(_ names: [String]) -> (layout: Layout, columns: [(index: Int, target: Target)])? {
        let layout: Layout
        if names.first == "Date" {
            layout = .daily
        } else if names.count > 1, names[0] == "Start time", names[1] == "End time" {
            layout = .quarterHours
        } else {
            return nil
        }
        let columns = names.enumerated().compactMap { i, name in targets[name].map { (index: i, target: $0) } }
        let known = names.filter { targets[$0] != nil || notImported.contains($0) || $0.hasSuffix(" duration (ms)") }.count
        return known >= 2 ? (layout, columns) : nil
    }

    /// Columns Google writes that are not imported (they still show a header is Google Fit's).
    static let notImported: Set<String> = [
        "Average heart rate (bpm)", "Max heart rate (bpm)", "Min heart rate (bpm)",
        "Low latitude (deg)", "Low longitude (deg)", "High latitude (deg)", "High longitude (deg)",
        "Average speed (m/s)", "Max speed (m/s)", "Min speed (m/s)", "Max weight (kg)", "Min weight (kg)",
    ]
}
