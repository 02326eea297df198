/// The one table of what a metric's value may be once it is in its canonical unit: every source
/// checks its values here after converting them, so a wrong unit (glucose in kg), a value in the
/// wrong unit's column (120 in a mmol/L column is 2,162 mg/dL), zero, a negative, NaN or infinity
/// is quarantined with the reason instead of being stored as a reading.
public enum Plausibility {
    /// A metric's canonical unit and the values a real reading can have in it.
    public struct Rule: Sendable {
        public let metric: String
        public let unit: Symbol
        public let lower: Double
        public let upper: Double
        /// True when the lower bound itself is not a possible reading (glucose 0 is an error code).
        public let lowerExclusive: Bool

        /// Why `value` in `unit` cannot be a reading of this metric; nil when it can.
        @inline(__always)
        public func problem(_ value: Double, unit written: Symbol) -> String? {
            if !value.isFinite { return "\(metric) value \(value) is not a number" }
            if written != unit { return "unit '\(written.text)' is not a unit of \(metric) (expected \(unit.text))" }
            if value < lower || (lowerExclusive && value == lower) || value > upper {
                return "\(metric) \(Plausibility.number(value)) \(unit.text) is outside the plausible range "
                    + "\(Plausibility.number(lower))–\(Plausibility.number(upper)) \(unit.text)"
            }
            return nil
        }
    }

    /// Glucose readings: meters and CGMs report 10–1000 mg/dL at most (sensors clip far inside it).
    public static let glucoseRange = (lower: MetricCatalogue.glucoseRange.lowerBound, upper: MetricCatalogue.glucoseRange.upperBound)

    /// Per metric, in the canonical unit its sources convert to: the bounded entries of
    /// `MetricCatalogue`. Bounds are the extremes a living person or a device can report, so they
    /// catch unit mix-ups and error codes, never real data.
    public static let rules: [Rule] = MetricCatalogue.all.compactMap { d in
        d.range.map { Rule(metric: d.name, unit: d.unit, lower: $0.lowerBound, upper: $0.upperBound, lowerExclusive: d.lowerExclusive) }
    }

    private static let byMetric: [Symbol: Rule] = Dictionary(uniqueKeysWithValues: rules.map { (Symbol($0.metric), $0) })

    /// The rule for a metric; nil for metrics without one (only finiteness is checked then).
    public static func rule(for metric: Symbol) -> Rule? { byMetric[metric] }

    /// Why a measurement's value cannot be stored; nil when it can.
    public static func problem(metric: Symbol, value: Double, unit: Symbol) -> String? {
        if let rule = byMetric[metric] { return rule.problem(value, unit: unit) }
        return value.isFinite ? nil : "\(metric.text) value \(value) is not a number"
    }

    /// Event amounts: insulin in U and carbohydrate in g, with the same purpose as `rules`.
    public static let insulinUnits = (lower: 0.0, upper: 1000.0)
    public static let carbGrams = (lower: 0.0, upper: 5000.0)

    // The same bounds as ranges, for sources that check a field before building the record, and the
    // amounts that have no metric of their own. Every source takes its numbers from here.
    public static let glucoseMgdl = glucoseRange.lower...glucoseRange.upper
    public static let insulinDose = insulinUnits.lower...insulinUnits.upper
    /// Carbohydrate, protein and fat of a meal (g).
    public static let mealGrams = carbGrams.lower...carbGrams.upper
    public static let basalRate = bounds("basal_rate")
    public static let ketoneMmol = bounds("ketone")
    public static let percent = 0.0...100.0
    /// A temp basal's change in percent of the scheduled rate as Nightscout writes it (−100 = off; pumps allow up to +400).
    public static let tempBasalPercent = -100.0...900.0
    /// Durations of events (temp basals, exercise, extended boluses, overrides): up to 14 days, in minutes.
    public static let durationMinutes = 0.0...(60.0 * 24 * 14)

    /// The bounds of a metric's rule as a range.
    public static func bounds(_ metric: String) -> ClosedRange<Double> {
        let r = rule(for: Symbol(metric))!
        return r.lower...r.upper
    }

    /// Nil when `value` is inside `range`, else the reason to reject it (`what` names the field).
    public static func check(_ value: Double, _ range: ClosedRange<Double>, _ what: String, unit: String) -> String? {
        value.isFinite && range.contains(value) ? nil : "\(what) \(number(value)) \(unit) is outside the plausible range "
            + "\(number(range.lowerBound))–\(number(range.upperBound)) \(unit)"
    }

    /// Why an event's insulin dose (U) or carbs (g) cannot be stored; nil when they can.
    public static func eventProblem(insulin: Double?, carbs: Double?) -> String? {
        if let u = insulin, !(u.isFinite && u >= insulinUnits.lower && u <= insulinUnits.upper) {
            return "insulin dose \(number(u)) U is outside the plausible range 0–\(number(insulinUnits.upper)) U"
        }
        if let g = carbs, !(g.isFinite && g >= carbGrams.lower && g <= carbGrams.upper) {
            return "carbohydrate \(number(g)) g is outside the plausible range 0–\(number(carbGrams.upper)) g"
        }
        return nil
    }

    /// `120` rather than `120.0`; other values as Swift prints them.
    public static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
