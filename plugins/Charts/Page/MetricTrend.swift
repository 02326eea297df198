import HealthPipeCore

/// One metric's days over a page's period, for its trend chart: each day's value as the catalogue
/// says the metric aggregates (`DailyMetricsTable.Cell.dayValue`), the latest value and the
/// period's average of the days that have one.
public struct MetricTrend: Sendable {
    public struct Point: Sendable {
        public var day: Int64
        public var value: Double
        /// The day's records and, for a level, its lowest and highest (the chart's whisker).
        public var n: Int
        public var min: Double?
        public var max: Double?
    }

    public var metric: String
    public var unit: String
    public var aggregation: DayAggregation
    public var firstDay: Int64
    public var lastDay: Int64
    /// Oldest first; days without a value are left out (the line breaks there).
    public var points: [Point]

    public var latest: Point? { points.last }
    public var average: Double? { points.isEmpty ? nil : points.reduce(0) { $0 + $1.value } / Double(points.count) }
    /// A metric that adds up is drawn as bars (each day's total), a level as a line.
    public var isBars: Bool { aggregation.addsUp }

    /// What the chart calls the day's value.
    public var valueName: String {
        switch aggregation {
        case .total, .duration: "day total"
        case .meanMinMax: "day mean"
        // The store keeps no last value; a day rarely holds more than one weight or score.
        case .last: "day value"
        }
    }

    /// A value as the trends show it: whole above 100 (steps, kcal), one decimal above 10 (a pulse, a
    /// weight), two below (km, a day of few floors): 0.04 km is not "0 km".
    public static func shown(_ v: Double) -> String {
        Fmt.amount(v, abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2)
    }

    /// A value of this metric as text: a percentage stored as a fraction of one (body fat 0.21) is
    /// shown as the percent (21 %), as its unit says.
    public func text(_ v: Double) -> String {
        Self.shown(MetricCatalogue.isFractionPercent(metric) ? v * 100 : v)
    }

    /// The unit after a value: none for a count (8769 steps are "8769", not "8769 count").
    public var shownUnit: String { unit == "count" ? "" : CanonicalUnits.shown(unit) }

    /// Headline metrics first (what a wearable person looks at), the rest by name.
    static let leading = ["step_count", "resting_heart_rate", "heart_rate_variability_rmssd", "heart_rate_variability_sdnn",
                          "body_mass", "heart_rate", "active_energy_burned", "distance_walking_running"]

    /// A trend per metric of `table` with at least one day value in `firstDay...lastDay`.
    public static func trends(_ table: DailyMetricsTable, firstDay: Int64, lastDay: Int64) -> [MetricTrend] {
        var byMetric: [String: MetricTrend] = [:]
        for cell in table.cells where cell.day >= firstDay && cell.day <= lastDay {
            guard let value = cell.dayValue else { continue }
            let point = Point(day: cell.day, value: value, n: cell.n, min: cell.min, max: cell.max)
            if byMetric[cell.metric] == nil {
                byMetric[cell.metric] = MetricTrend(metric: cell.metric, unit: cell.unit, aggregation: MetricCatalogue.dayAggregation(cell.metric),
                                                    firstDay: firstDay, lastDay: lastDay, points: [])
            }
            byMetric[cell.metric]!.points.append(point)
        }
        let order = { (m: String) in leading.firstIndex(of: m) ?? leading.count }
        return byMetric.values.map { t in
            var t = t
            t.points.sort { $0.day < $1.day }
            return t
        }.sorted { (order($0.metric), $0.metric) < (order($1.metric), $1.metric) }
    }
}

extension DailyMetricsTable.Cell {
    /// The day's value as `MetricCatalogue` says the metric aggregates: the total (each minute once)
    /// for one that adds up — nil for a day summarised before totals were kept, never the mean of its
    /// records — and the mean for a level or a last value.
    public var dayValue: Double? {
        MetricCatalogue.dayAggregation(metric).addsUp ? total : mean
    }
}

extension DailyMetricsTable {
    /// A metric's name as a person reads it: `step_count` → "step count", `fitbit.sleep_score` → "fitbit sleep score".
    public static func shownName(_ metric: String) -> String {
        metric.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: ".", with: " ")
    }
}
