import HealthPipeCore

/// The data types of Google Fit's `All Data/*.json` points (`dataTypeName`), and what each becomes:
/// a metric in its canonical unit from the point's one value, or known and not imported.
enum GoogleFitDataTypes {
    struct Stored {
        let metric: Symbol
        let unit: Symbol
        /// Multiplies Google's value into `unit` (metres → km, height metres → cm).
        let scale: Double
    }

    /// Fixed slots of the file's `RowTally`: the stored types first, then the known ones not imported.
    static let stored: [(name: String, target: Stored)] = [
        ("com.google.step_count.delta", Stored(metric: Symbol("step_count"), unit: Symbol("count"), scale: 1)),
        ("com.google.heart_rate.bpm", Stored(metric: Symbol("heart_rate"), unit: Symbol("count/min"), scale: 1)),
        ("com.google.weight", Stored(metric: Symbol("body_mass"), unit: Symbol("kg"), scale: 1)),
        ("com.google.height", Stored(metric: Symbol("height"), unit: Symbol("cm"), scale: 100)),
        ("com.google.calories.expended", Stored(metric: Symbol("total_energy_burned"), unit: Symbol("kcal"), scale: 1)),
        ("com.google.distance.delta", Stored(metric: Symbol("distance"), unit: Symbol("km"), scale: 0.001)),
        ("com.google.active_minutes", Stored(metric: Symbol("active_minutes"), unit: Symbol("min"), scale: 1)),
        // Its one field is "intensity": a Heart Point per moderate minute, two per vigorous one.
        ("com.google.heart_minutes", Stored(metric: Symbol("google_fit.heart_points"), unit: Symbol("count"), scale: 1)),
    ]

    /// Types Google writes that are not imported: activity segments and samples (what the phone thought
    /// the person was doing), the resting energy estimate, location and speed samples, the step counter's
    /// running total (its deltas are the steps), sleep segments, respiratory rate, and the app's goals
    /// and settings.
    static let notImported = [
        "com.google.activity.segment", "com.google.activity.samples", "com.google.calories.bmr",
        "com.google.location.sample", "com.google.speed", "com.google.step_count.cumulative",
        "com.google.sleep.segment", "com.google.respiratory_rate", "com.google.internal.goal",
        "com.google.internal.sleep_attributes", "com.google.internal.sleep_schedule",
        "com.google.internal.paced_walking_attributes",
    ]

    static let names = stored.map(\.name) + notImported
    private static let slots: [[UInt8]: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { (Array($1.utf8), $0) })

    /// The fixed slot of a type written as `bytes`; nil for a type not listed.
    static func slot(_ bytes: UnsafeRawBufferPointer) -> Int? {
        // Types come in runs (a file holds one): the caller keeps the last one; this lookup copies its bytes.
        slots[Array(bytes)]
    }
}
