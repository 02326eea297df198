/// Metrics measured in percent that HealthPipe stores as a fraction of one with the unit "%", as
/// Apple Health writes them (`OxygenSaturation` 0.98, `BodyFatPercentage` 0.243). Other writers put
/// the percent itself (98) with the same unit: the one rule for reading such a value lives here.
/// Which metrics they are is `MetricCatalogue`'s (`fractionOfOne`).
public enum PercentMetrics {
    public static let unit = Symbol("%")

    public static func isFraction(_ metric: String) -> Bool { MetricCatalogue.isFractionPercent(metric) }

    /// A value written in "%" as the stored fraction: above 1 and at most 100 it is the percent
    /// itself (98 → 0.98); at most 1 it is already the fraction. Anything else is left for the
    /// plausibility check to refuse.
    @inline(__always)
    public static func fraction(fromWritten v: Double) -> Double {
        v > 1 && v <= 100 ? v / 100 : v
    }
}
