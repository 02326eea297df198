/// Plausibility ranges for values the JSON sources map, in canonical units. One small table per
/// plugin until HealthPipeCore/Units holds the shared one; a value outside its range rejects the
/// document with the reason, so a unit mix-up (mmol/L read as mg/dL) never lands silently.
enum Plausible {
    /// mg/dL: sensors report 40–400 (Libre to 500); meters 10–600. Below 10 or above 1000 is no reading.
    static let glucoseMgdl = 10.0...1000.0
    static let insulinUnits = 0.0...250.0
    static let basalRate = 0.0...50.0
    static let carbsGrams = 0.0...2000.0
    static let ketoneMmol = 0.0...30.0
    static let percent = 0.0...100.0
    static let durationMinutes = 0.0...(60.0 * 24 * 14)

    /// Nil when `value` is inside `range`, else the reason to reject it.
    static func check(_ value: Double, _ range: ClosedRange<Double>, _ what: String, unit: String) -> String? {
        range.contains(value) ? nil : "\(what) \(value.formatted6) \(unit) is outside the plausible range "
            + "\(range.lowerBound.formatted6)–\(range.upperBound.formatted6) \(unit)"
    }
}

extension Double {
    /// Compact text for messages: `162`, `0.1`, `7.5`.
    var formatted6: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
