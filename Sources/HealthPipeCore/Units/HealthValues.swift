import Foundation

/// The health values a report can hold (seed 004: body temperature, blood pressure, glucose,
/// weight, pain, mood …): each metric's canonical name — Apple Health's where it has one, so a
/// thermometer in an Apple export and a hand-written report are one metric — its aliases, its
/// canonical unit and the spellings of the units it converts from. Any other snake_case name is a
/// custom metric, stored in the unit given when it is one of the known units.
public enum HealthValues {
    public enum Conversion: Sendable {
        case keep
        case scale(Double)
        case fahrenheit
        /// mmol/L → whole mg/dL, as every glucose source rounds (`CanonicalUnits.mgdl`).
        case glucoseMmol
    }

    public struct Kind: Sendable {
        public let metric: String
        public let aliases: [String]
        public let unit: String
        /// Lower-cased spellings → conversion to `unit`; "" is the value written without a unit.
        public let units: [String: Conversion]
        /// Values outside this range (canonical unit) are refused: a scale's ends, or the extremes a
        /// person or device can report (`MetricCatalogue`'s bounds for the metrics it lists).
        public let range: ClosedRange<Double>?
    }

    static let celsius: [String: Conversion] = ["": .keep, "degc": .keep, "°c": .keep, "c": .keep, "celsius": .keep,
                                                 "degf": .fahrenheit, "°f": .fahrenheit, "f": .fahrenheit, "fahrenheit": .fahrenheit]
    static let mmHg: [String: Conversion] = ["": .keep, "mmhg": .keep, "kpa": .scale(7.500_615_75)]
    static let perMinute: [String: Conversion] = ["": .keep, "count/min": .keep, "bpm": .keep, "/min": .keep, "beats/min": .keep,
                                                  "breaths/min": .keep]
    static let score: [String: Conversion] = ["": .keep, "score": .keep, "/10": .keep]

    public static let kinds: [Kind] = [
        Kind(metric: "body_temperature", aliases: ["temperature", "temp"], unit: "degC", units: celsius, range: catalogued("body_temperature")),
        Kind(metric: "blood_pressure_systolic", aliases: ["systolic", "sys"], unit: "mmHg", units: mmHg, range: catalogued("blood_pressure_systolic")),
        Kind(metric: "blood_pressure_diastolic", aliases: ["diastolic", "dia"], unit: "mmHg", units: mmHg, range: catalogued("blood_pressure_diastolic")),
        Kind(metric: "glucose", aliases: ["glycemia", "glycaemia"], unit: "mg/dL",
             units: ["": .keep, "mg/dl": .keep, "mmol/l": .glucoseMmol, "mmol": .glucoseMmol], range: catalogued("glucose")),
        Kind(metric: "body_mass", aliases: ["weight"], unit: "kg",
             units: ["": .keep, "kg": .keep, "lb": .scale(0.453_592_37), "lbs": .scale(0.453_592_37), "g": .scale(0.001)], range: catalogued("body_mass")),
        Kind(metric: "heart_rate", aliases: ["pulse", "hr"], unit: "count/min", units: perMinute, range: catalogued("heart_rate")),
        Kind(metric: "respiratory_rate", aliases: ["breathing"], unit: "count/min", units: perMinute, range: catalogued("respiratory_rate")),
        // Typed as the percent itself (96), unlike the fraction an import stores (`MetricCatalogue`).
        Kind(metric: "oxygen_saturation", aliases: ["spo2"], unit: "%", units: ["": .keep, "%": .keep], range: 0...100),
        Kind(metric: "ketone", aliases: ["blood_ketone", "ketones"], unit: "mmol/L", units: ["": .keep, "mmol/l": .keep], range: catalogued("ketone")),
        Kind(metric: "pain", aliases: [], unit: "score", units: score, range: 0...10),
        Kind(metric: "mood", aliases: [], unit: "score", units: score, range: 0...10),
    ]

    /// The catalogue's bounds of a metric in the same canonical unit.
    static func catalogued(_ metric: String) -> ClosedRange<Double>? { MetricCatalogue.definition(metric)?.range }

    /// The largest magnitude a custom metric's value may have.
    public static let customLimit = 1_000_000_000.0

    /// The catalog entry of a name or alias (case-insensitive); nil for a custom metric.
    public static func kind(named name: String) -> Kind? {
        let n = name.lowercased()
        return kinds.first { $0.metric == n || $0.aliases.contains(n) }
    }

    /// The stored metric name for what a user typed: the canonical name of a known metric or alias,
    /// else the name itself (lower-cased) when it is a valid custom name; nil when it is not.
    public static func metricName(_ name: String) -> String? {
        if let k = kind(named: name) { return k.metric }
        let n = name.lowercased()
        guard let first = n.unicodeScalars.first, ("a"..."z").contains(first), n.count <= 64,
              n.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else { return nil }
        return n
    }

    /// How units are named in messages (the spellings accepted besides these are variants of them).
    static let spelled = ["degc": "degC", "°c": "°C", "degf": "degF", "°f": "°F", "mmhg": "mmHg", "kpa": "kPa", "mg/dl": "mg/dL",
                          "mmol/l": "mmol/L", "kg": "kg", "lb": "lb", "g": "g", "count/min": "count/min", "bpm": "bpm", "%": "%",
                          "score": "score"]

    /// Every unit spelling the catalog knows (what a custom metric may be measured in).
    static let knownUnits: [String: String] = {
        var out: [String: String] = [:]
        for k in kinds {
            out[k.unit.lowercased()] = k.unit
            for (spelling, c) in k.units where !spelling.isEmpty { if case .keep = c { out[spelling] = out[spelling] ?? k.unit } }
        }
        for extra in ["min", "h", "cm", "m", "km", "kcal", "g", "ml", "l", "steps", "count"] { out[extra] = out[extra] ?? extra }
        return out
    }()

    /// A value in the metric's canonical unit, or the reason it cannot be one.
    public static func canonical(metric: String, value: Double, unit: String) -> Result<(value: Double, unit: String, flags: RecordFlags), Problem> {
        guard value.isFinite else { return .failure(.notANumber) }
        let spelling = unit.trimmingCharacters(in: .whitespaces).lowercased()
        guard let k = kind(named: metric) else {
            // A custom metric has no scale, but no person reports a billion of anything: the bound
            // keeps day sums and averages finite.
            guard abs(value) <= customLimit else { return .failure(.outOfRange(-customLimit...customLimit, unit: unit)) }
            if spelling.isEmpty { return .success((value, "", [])) }
            guard let u = knownUnits[spelling] else { return .failure(.unknownUnit(unit, expected: nil)) }
            return .success((value, u, []))
        }
        guard let conversion = k.units[spelling] else {
            let listed = k.units.keys.compactMap { spelled[$0] }.sorted()
            return .failure(.unknownUnit(unit, expected: listed))
        }
        var v = value, flags: RecordFlags = []
        switch conversion {
        case .keep: break
        case .scale(let f): v = value * f
        case .fahrenheit: v = (value - 32) * 5 / 9
        case .glucoseMmol:
            v = CanonicalUnits.mgdl(fromMmol: value)
            flags = .convertedFromMmol
        }
        if v < 0 { return .failure(.negative) }
        if let r = k.range, !r.contains(v) { return .failure(.outOfRange(r, unit: k.unit)) }
        return .success((v, k.unit, flags))
    }

    /// A number as people write it in messages: no trailing `.0`.
    public static func text(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notANumber, negative
        case unknownUnit(String, expected: [String]?)
        case outOfRange(ClosedRange<Double>, unit: String)

        public var description: String {
            switch self {
            case .notANumber: return "the value is not a number"
            case .negative: return "the value cannot be negative"
            case .unknownUnit(let u, let expected):
                return "unknown unit '\(u)'" + (expected.map { " (expected \($0.joined(separator: ", ")))" } ?? "")
            case .outOfRange(let r, let unit):
                return "the value must lie within \(HealthValues.text(r.lowerBound))–\(HealthValues.text(r.upperBound)) \(unit)"
            }
        }
    }
}
