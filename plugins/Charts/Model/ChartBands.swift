import HealthPipeAnalytics
import HealthPipeCore

/// The background bands of the day view and the side views: the classify preset's bands with
/// their colours and a text label each (colour is never the only cue).
public struct ChartBands: Sendable {
    public struct Band: Sendable {
        /// The label `classify` stores (`low`, `normal`, `in_range` …).
        public var name: String
        /// What a person reads: "Low", "In range".
        public var title: String
        /// Edges in mg/dL (nil: open).
        public var lower: Double?
        public var upper: Double?
        public var upperInclusive: Bool
        /// Position against the target band: -2 very low … 0 target … 2 very high.
        public var level: Int
        public var fill: String
        public var ink: String
    }

    /// Preset name (`seeds`, `consensus`, `range`, or `custom`).
    public var preset: String
    public var bands: [Band]

    public init(scheme: BandScheme) {
        preset = scheme.name
        var out: [Band] = []
        var lower: Double?
        for (i, b) in scheme.bands.enumerated() {
            let level = i - scheme.target
            let colours = Palette.band(level: max(-2, min(2, level)))
            out.append(Band(name: b.label.text, title: Self.title(b.label.text), lower: lower, upper: b.upper,
                            upperInclusive: b.inclusive, level: level, fill: colours.fill, ink: colours.ink))
            lower = b.upper
        }
        bands = out
    }

    /// The band a value falls in (same rule as `classify`).
    public func index(of mgdl: Double) -> Int {
        for (i, b) in bands.enumerated() {
            guard let u = b.upper else { return i }
            if b.upperInclusive ? mgdl <= u : mgdl < u { return i }
        }
        return bands.count - 1
    }

    /// The band's range as people write it in `unit`: "< 4.0", "4.0–10.0", "> 10.0"; for the
    /// consensus bands in mg/dL "< 54", "54–69", "70–180", "181–250", "> 250".
    public func rangeText(_ i: Int, unit: DisplayUnit) -> String {
        let b = bands[i]
        let step = unit.edgeStep
        func shown(_ mgdl: Double) -> Double { (unit.value(mgdl) / step).rounded() * step }
        let fmt = { (v: Double) in Fmt.fixed(v, unit.decimals) }
        // A strict edge ends the band one step below it; an inclusive edge of the band below starts this one a step above.
        let previousInclusive = i > 0 && bands[i - 1].upperInclusive
        switch (b.lower, b.upper) {
        case (nil, let u?): return (b.upperInclusive ? "≤ " : "< ") + fmt(shown(u))
        case (let l?, nil): return (previousInclusive ? "> " : "≥ ") + fmt(shown(l))
        case (let l?, let u?):
            let from = previousInclusive ? shown(l) + step : shown(l)
            let to = b.upperInclusive ? shown(u) : shown(u) - step
            return fmt(from) + "–" + fmt(to)
        case (nil, nil): return "all"
        }
    }

    static func title(_ label: String) -> String {
        switch label {
        case "very_low": return "Very low"
        case "very_high": return "Very high"
        case "in_range": return "In range"
        default:
            let words = label.split(whereSeparator: { $0 == "_" || $0 == " " })
            guard let first = words.first else { return label }
            return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst().map(String.init)).joined(separator: " ")
        }
    }

    /// The preset whose labels match every stored band label of `readings` (the preset the store
    /// was classified with), trying seeds, range and consensus — range first, because readings
    /// without a very low or very high one fit both; nil when none fits (custom bands or
    /// unclassified readings).
    public static func detectPreset(_ readings: [Measurement]) -> BandScheme? {
        let labelled = readings.filter { !$0.band.text.isEmpty }
        guard !labelled.isEmpty else { return nil }
        for scheme in [BandScheme.seeds, .range, .consensus] {
            if labelled.allSatisfy({ scheme.bands[scheme.classify($0.value)].label == $0.band }) { return scheme }
        }
        return nil
    }
}
