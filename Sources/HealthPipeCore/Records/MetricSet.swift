/// A named set of derived values (CGM metrics) for one subject and metric over a run of local days:
/// one day (`firstDay == lastDay`) or a period. Produced by the `daily` transform; names follow
/// docs/analytics.md (`mean`, `cv_pct`, `mage_ma`, …). The AGP profile, when computed, rides along.
public struct MetricSet: Hashable, Sendable {
    public var subject: Symbol
    public var metric: Symbol
    public var unit: Symbol
    /// Days since 1970-01-01 in local time, inclusive.
    public var firstDay: Int64
    public var lastDay: Int64
    public var values: [NamedValue]
    /// Ambulatory glucose profile: percentiles by time of day (empty for single days).
    public var agp: [AGPPoint]

    public init(subject: Symbol, metric: Symbol, unit: Symbol, firstDay: Int64, lastDay: Int64,
                values: [NamedValue], agp: [AGPPoint] = []) {
        self.subject = subject
        self.metric = metric
        self.unit = unit
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.values = values
        self.agp = agp
    }

    public subscript(name: String) -> Double? { values.first { $0.name == name }?.value }
}

public struct NamedValue: Hashable, Sendable {
    public var name: String
    public var value: Double
    public init(_ name: String, _ value: Double) {
        self.name = name
        self.value = value
    }
}

/// One time-of-day column of the AGP: minute of the day (0 = the grid's 24:00 column) and its
/// 5th/25th/50th/75th/95th percentiles across days.
public struct AGPPoint: Hashable, Sendable {
    public var minuteOfDay: Int
    public var count: Int
    public var p05: Double, p25: Double, p50: Double, p75: Double, p95: Double
    public init(minuteOfDay: Int, count: Int, p05: Double, p25: Double, p50: Double, p75: Double, p95: Double) {
        self.minuteOfDay = minuteOfDay
        self.count = count
        self.p05 = p05
        self.p25 = p25
        self.p50 = p50
        self.p75 = p75
        self.p95 = p95
    }
}
