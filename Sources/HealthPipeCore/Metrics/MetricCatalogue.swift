/// How a local day sums up a metric's readings (`MetricCatalogue`).
public enum DayAggregation: String, Sendable {
    /// The day adds up (steps, distance, energy, floors, exercise minutes): the daily summary's
    /// `total` counts each minute once when sources overlap (`SourcePriority`).
    case total
    /// A level sampled through the day (heart rate, glucose, temperature): count, mean, SD, min and max.
    case meanMinMax = "mean_min_max"
    /// Minutes spent in a state (sleep stages, mindful minutes): added up like a total, each minute once.
    case duration
    /// A value that stands until the next one (weight, body composition, a vendor's daily score).
    case last

    /// A day's `total` is computed (minutes counted once across sources).
    public var addsUp: Bool { self == .total || self == .duration }
}

/// One metric as HealthPipe stores it: its canonical name (Apple Health's where it has one), the
/// unit its sources convert to, the values a reading can have in it, and how a day aggregates it.
public struct MetricDefinition: Sendable {
    public let name: String
    public let unit: Symbol
    /// Readings outside are quarantined (`Plausibility`); nil: only finiteness is checked.
    public let range: ClosedRange<Double>?
    /// True when the lower bound itself is not a possible reading (glucose 0 is an error code).
    public let lowerExclusive: Bool
    public let day: DayAggregation
    /// A percentage stored as a fraction of one with unit "%" (Apple writes oxygen saturation 0.98):
    /// a value written as the percent itself (98) is divided by 100 (`PercentMetrics`).
    public let fractionOfOne: Bool

    init(_ name: String, _ unit: String, _ range: ClosedRange<Double>? = nil, lowerExclusive: Bool = false,
         day: DayAggregation, fractionOfOne: Bool = false) {
        self.name = name
        self.unit = Symbol(unit)
        self.range = range
        self.lowerExclusive = lowerExclusive
        self.day = day
        self.fractionOfOne = fractionOfOne
    }
}

/// The one catalogue of metrics: every list that needs a metric's unit, bounds, percent rule or day
/// aggregation reads it here (`Plausibility.rules`, `PercentMetrics`, the daily totals, FHIR's percent
/// export). A metric not listed is a level (mean/min/max) without bounds, as it always was.
public enum MetricCatalogue {
    /// Glucose readings: meters and CGMs report 10–1000 mg/dL at most (sensors clip far inside it).
    public static let glucoseRange = 10.0...1000.0
    static let perMinute = 20.0...300.0
    static let celsius = 20.0...46.0

    public static let all: [MetricDefinition] = levels + percents + totals + lastValues

    /// Levels: mean, SD, min and max per day.
    static let levels: [MetricDefinition] = [
        .init("glucose", "mg/dL", glucoseRange, day: .meanMinMax),
        .init("blood_glucose", "mg/dL", glucoseRange, day: .meanMinMax),
        .init("ketone", "mmol/L", 0...30, day: .meanMinMax),
        .init("isig", "nA", 0...500, day: .meanMinMax),
        .init("basal_rate", "U/h", 0...100, day: .meanMinMax),
        .init("heart_rate", "count/min", perMinute, day: .meanMinMax),
        .init("resting_heart_rate", "count/min", perMinute, day: .meanMinMax),
        .init("walking_heart_rate_average", "count/min", perMinute, day: .meanMinMax),
        .init("respiratory_rate", "count/min", 1...120, day: .meanMinMax),
        // HRV: Apple writes SDNN; Oura, WHOOP and Fitbit RMSSD: two metrics, never one.
        .init("heart_rate_variability_sdnn", "ms", day: .meanMinMax),
        .init("heart_rate_variability_rmssd", "ms", day: .meanMinMax),
        .init("body_temperature", "degC", celsius, day: .meanMinMax),
        .init("basal_body_temperature", "degC", celsius, day: .meanMinMax),
        .init("blood_pressure_systolic", "mmHg", 30...350, day: .meanMinMax),
        .init("blood_pressure_diastolic", "mmHg", 10...250, day: .meanMinMax),
        // What a closed loop or pump reports (Nightscout device status, t:connect, CareLink).
        .init("insulin_on_board", "U", -50...1000, day: .meanMinMax),
        .init("carbs_on_board", "g", 0...5000, day: .meanMinMax),
        .init("pump_reservoir", "U", 0...1000, day: .meanMinMax),
        .init("pump_battery", "%", 0...100, day: .meanMinMax),
        .init("uploader_battery", "%", 0...100, day: .meanMinMax),
    ]

    /// Percentages stored as a fraction of one: 0.98, never 98. (A health report's oxygen
    /// saturation is typed and kept as the percent itself, 0–100: `HealthValues`.)
    static let percents: [MetricDefinition] = [
        .init("oxygen_saturation", "%", 0...1, lowerExclusive: true, day: .meanMinMax, fractionOfOne: true),
        .init("body_fat_percentage", "%", 0...1, lowerExclusive: true, day: .last, fractionOfOne: true),
        .init("walking_asymmetry_percentage", "%", 0...1, day: .meanMinMax, fractionOfOne: true),
        .init("walking_double_support_percentage", "%", 0...1, day: .meanMinMax, fractionOfOne: true),
        .init("apple_walking_steadiness", "%", 0...1, day: .meanMinMax, fractionOfOne: true),
        .init("blood_alcohol_content", "%", 0...1, day: .meanMinMax, fractionOfOne: true),
        .init("peripheral_perfusion_index", "%", 0...1, day: .meanMinMax, fractionOfOne: true),
    ]

    /// What a day adds up. `dietary_*` and `sleep_analysis.*` are matched by prefix (`dayAggregation`).
    static let totals: [MetricDefinition] = [
        .init("step_count", "count", 0...1_000_000, day: .total),
        .init("distance_walking_running", "km", day: .total),
        .init("distance_cycling", "km", day: .total),
        .init("distance_swimming", "km", day: .total),
        .init("distance_wheelchair", "km", day: .total),
        .init("distance_downhill_snow_sports", "km", day: .total),
        .init("active_energy_burned", "kcal", day: .total),
        .init("basal_energy_burned", "kcal", day: .total),
        .init("flights_climbed", "count", day: .total),
        .init("push_count", "count", day: .total),
        .init("swimming_stroke_count", "count", day: .total),
        .init("apple_exercise_time", "min", day: .total),
        .init("apple_move_time", "min", day: .total),
        .init("apple_stand_time", "min", day: .total),
        .init("time_in_daylight", "min", day: .total),
        // Wearables without an Apple name for it (Fitbit's, Garmin's intensity minutes).
        .init("active_minutes", "min", day: .total),
        // Every distance a phone counted, walking, running and cycling alike (Google Fit's).
        .init("distance", "km", day: .total),
        // Energy including the resting part (Google Fit's calories, Oura's and WHOOP's total burn).
        .init("total_energy_burned", "kcal", day: .total),
        .init("google_fit.heart_points", "count", day: .total),
        .init("google_fit.heart_minutes", "min", day: .total),
        .init("dietary_carbohydrates", "g", 0...5000, day: .total),
        .init("mindful_session", "min", day: .duration),
    ]

    /// Values that stand until the next one. Vendor scores are namespaced by their vendor
    /// (`fitbit.sleep_score`, as the Fitbit adapter writes it): one vendor's "readiness" is not another's.
    static let lastValues: [MetricDefinition] = [
        .init("body_mass", "kg", 0.2...700, day: .last),
        .init("lean_body_mass", "kg", day: .last),
        .init("body_mass_index", "count", day: .last),
        .init("height", "cm", day: .last),
        .init("waist_circumference", "cm", day: .last),
        // Glycated haemoglobin as the percent a lab or a diary writes (6.5, not 0.065).
        .init("hba1c", "%", 2...25, day: .last),
        // Apple's activity rings: one value per day already.
        .init("activity_active_energy", "kcal", day: .last),
        .init("activity_move_time", "min", day: .last),
        .init("activity_exercise_time", "min", day: .last),
        .init("activity_stand_hours", "h", day: .last),
        .init("fitbit.sleep_score", "score", day: .last),
        .init("fitbit.sleep_score_composition", "score", day: .last),
        .init("fitbit.sleep_score_revitalization", "score", day: .last),
        .init("fitbit.sleep_score_duration", "score", day: .last),
        .init("oura.readiness_score", "score", day: .last),
        .init("oura.sleep_score", "score", day: .last),
        .init("whoop.recovery_score", "score", day: .last),
        .init("garmin.body_battery", "score", day: .meanMinMax),
        .init("garmin.stress_level", "score", day: .meanMinMax),
    ]

    private static let byName: [String: MetricDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The catalogue's entry for a metric; nil for one it does not list.
    public static func definition(_ metric: String) -> MetricDefinition? { byName[metric] }

    /// How a day aggregates `metric`: its entry's rule; Apple's category states of sleep
    /// (`sleep_analysis.asleep_core` …) are durations and every `dietary_*` nutrient a total;
    /// any other metric is a level.
    public static func dayAggregation(_ metric: String) -> DayAggregation {
        if let d = byName[metric] { return d.day }
        if metric.hasPrefix("sleep_analysis") { return .duration }
        if metric.hasPrefix("dietary_") { return .total }
        return .meanMinMax
    }

    /// True for a percentage stored as a fraction of one (`MetricDefinition.fractionOfOne`).
    public static func isFractionPercent(_ metric: String) -> Bool { byName[metric]?.fractionOfOne ?? false }
}
