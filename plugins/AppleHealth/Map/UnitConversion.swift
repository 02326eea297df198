import HealthPipeCore

/// How a value in Apple's unit becomes a value in HealthPipe's canonical unit, decided once per
/// (metric, unit) pair: glucose → mg/dL (mmol/L rounded to whole mg/dL), temperature → degC,
/// distance → km, energy → kcal, mass → kg; any other unit is kept as written.
struct UnitConversion {
    enum Rule { case keep, scale(Double), fahrenheit, glucoseMmol, percentFraction }
    let unit: Symbol
    let rule: Rule
    /// The unit as the export writes it (for messages and the quarantine).
    let appleUnit: String

    init(appleUnit: String, metric: String) {
        self.appleUnit = appleUnit
        let u = appleUnit
        if metric == "glucose" || metric == "blood_glucose", let g = GlucoseUnit(spelling: u) {
            unit = CanonicalUnits.glucose
            rule = g == .mmol ? .glucoseMmol : .keep
            return
        }
        if u == "%", PercentMetrics.isFraction(metric) {
            (unit, rule) = (PercentMetrics.unit, .percentFraction)  // 98 % and 0.98 % are one reading
            return
        }
        switch u {
        case "degC": (unit, rule) = (CanonicalUnits.celsius, .keep)
        case "degF": (unit, rule) = (CanonicalUnits.celsius, .fahrenheit)
        case "kcal", "Cal": (unit, rule) = (Self.kcal, .keep)
        case "kJ": (unit, rule) = (Self.kcal, .scale(1 / 4.184))
        case "cal": (unit, rule) = (Self.kcal, .scale(0.001))
        case "lb": (unit, rule) = (Self.kg, .scale(0.45359237))
        case "km" where metric.hasPrefix("distance"): (unit, rule) = (Self.km, .keep)
        case "mi" where metric.hasPrefix("distance"): (unit, rule) = (Self.km, .scale(1.609344))
        case "m" where metric.hasPrefix("distance"): (unit, rule) = (Self.km, .scale(0.001))
        case "ft" where metric.hasPrefix("distance"): (unit, rule) = (Self.km, .scale(0.0003048))
        case "yd" where metric.hasPrefix("distance"): (unit, rule) = (Self.km, .scale(0.0009144))
        default: (unit, rule) = (Symbol(u), .keep)
        }
    }

    @inline(__always)
    func convert(_ v: Double) -> (value: Double, flags: RecordFlags) {
        switch rule {
        case .keep: return (v, [])
        case .scale(let f): return (v * f, [])
        case .fahrenheit: return ((v - 32) * 5 / 9, [])
        case .glucoseMmol: return (CanonicalUnits.mgdl(fromMmol: v), .convertedFromMmol)
        case .percentFraction: return (PercentMetrics.fraction(fromWritten: v), [])
        }
    }

    static let kcal = Symbol("kcal")
    static let km = Symbol("km")
    static let kg = Symbol("kg")
}
