import HealthPipeCore

/// A glucose number from a CSV cell, in canonical mg/dL, checked after conversion against the one
/// plausibility table (`Plausibility`): 120 in a mmol/L column is 2,162 mg/dL and is refused with a
/// hint, not stored. Shared by every CSV format that reads glucose.
enum GlucoseValue {
    private static let rule = Plausibility.rule(for: Metrics.glucose)!

    /// `v` written in `unit` as mg/dL with its flags; throws the row's rejection when implausible.
    static func canonical(_ v: Double, unit: GlucoseUnit, cell: UnsafeRawBufferPointer, what: String) throws -> (Double, RecordFlags) {
        let mgdl = unit.toMgdl(v)
        if let problem = rule.problem(mgdl, unit: CanonicalUnits.glucose) {
            var reason = "\(what) \(cell.echo) \(unit.rawValue): \(problem)"
            if unit == .mmol, mgdl > rule.upper, v >= rule.lower, v <= rule.upper {
                reason += " (a mg/dL value in a mmol/L column?)"
            }
            throw CSVFileRun.Reject(reason)
        }
        return (mgdl, unit == .mmol ? .convertedFromMmol : [])
    }
}
