/// Canonical units and conversions. Every value is converted once, at the source, so transforms and
/// sinks never guess a unit (mg/dL ↔ mmol/L mix-ups are the peers' most common bug).
public enum CanonicalUnits {
    /// mg/dL per mmol/L: glucose molar mass 180.156 g/mol / 10 (the constant Apple writes, 180.15588…/10).
    public static let mgdlPerMmol = 18.0156

    public static let glucose = Symbol("mg/dL")
    public static let grams = Symbol("g")
    public static let insulinUnits = Symbol("U")
    public static let minutes = Symbol("min")
    public static let celsius = Symbol("degC")
    public static let mmHg = Symbol("mmHg")

    /// A glucose value in mmol/L as whole mg/dL: convert, then round half away from zero, so that
    /// band edges behave (10.0 mmol/L → 180 mg/dL is in range; see reference/analytics.md §4).
    @inlinable
    public static func mgdl(fromMmol mmol: Double) -> Double {
        (mmol * mgdlPerMmol).rounded(.toNearestOrAwayFromZero)
    }

    public static func mmol(fromMgdl mgdl: Double) -> Double { mgdl / mgdlPerMmol }

    /// A stored unit as a person reads it after a number: the store keeps UCUM-like spellings
    /// (`degC`, `count/min`) that files and APIs exchange; pages and messages show `°C`, `/min`.
    public static func shown(_ unit: String) -> String {
        switch unit {
        case "degC": "°C"
        case "degF": "°F"
        case "count/min": "/min"
        default: unit
        }
    }
}

/// A glucose unit as written in a header or record.
public enum GlucoseUnit: String, Sendable, Decodable {
    case mgdl = "mg/dL"
    case mmol = "mmol/L"

    /// Recognises `mg/dL`, `mg/dl`, `mgdl`, `mg`, `mmol/L`, `mmol/l`, `mmol<180.1558800000541>/L`, `mmol`:
    /// the one reading of a glucose unit's spelling (files, settings, the CLI's `--unit`).
    public init?(spelling: some StringProtocol) {
        let s = spelling.lowercased()
        if s.hasPrefix("mg/dl") || s == "mg" || s == "mgdl" { self = .mgdl }
        else if s.hasPrefix("mmol") { self = .mmol }
        else { return nil }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let unit = GlucoseUnit(spelling: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "unknown glucose unit '\(text)' (use mg/dL or mmol/L)"))
        }
        self = unit
    }

    /// Converts a value written in this unit to canonical mg/dL.
    @inlinable
    public func toMgdl(_ v: Double) -> Double {
        switch self {
        case .mgdl: return v
        case .mmol: return CanonicalUnits.mgdl(fromMmol: v)
        }
    }
}

/// Well-known metric names. Adapters may emit others; these are the ones transforms know.
public enum Metrics {
    public static let glucose = Symbol("glucose")
    /// A finger-stick check: a meter's reading, or the BG a pump or app was given (not the CGM's series).
    public static let bloodGlucose = Symbol("blood_glucose")
    public static let ketone = Symbol("ketone")
    public static let heartRate = Symbol("heart_rate")
    public static let sensorSignal = Symbol("isig")
}

/// The insulin vocabulary every source maps to, so daily totals and queries see one set of names:
/// Dexcom Fast-/Long-Acting, LibreView rapid/long, Apple's HKInsulinDeliveryReason 2/1, Nightscout.
public enum InsulinKinds {
    public static let bolus = Symbol("bolus")
    public static let basal = Symbol("basal")
}

/// The episode kinds whose days the day log flags (seeds 000/002): an episode marks every local day it spans.
public enum EpisodeKinds {
    public static let illness = Symbol("illness")
    public static let stress = Symbol("stress")
    public static func marksDays(_ subtype: Symbol) -> Bool { subtype == illness || subtype == stress }
}
