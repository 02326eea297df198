import HealthPipeCore

/// One period's metric set per glucose series: the days inside the period, collected as the
/// ledger hands them over (series by series), computed when the series ends.
struct PeriodCollector {
    typealias Done = (set: MetricSet, dayFlags: [Int64: (Bool, Bool)])
    let from: Int64?, to: Int64?
    let active: Bool
    let options: GlucoseMetrics.Options
    private var current: (series: UInt32, key: DailyTransform.SeriesKey, unit: Symbol)?
    private var times: [Int64] = []
    private var values: [Double] = []
    /// Hypo/hyper flags of the current series' days in the period (for its day counts).
    private var dayFlags: [Int64: (Bool, Bool)] = [:]

    init(per: MetricPeriod?, options: GlucoseMetrics.Options) {
        if case .period(let f, let t)? = per { (from, to, active) = (f, t, true) } else { (from, to, active) = (nil, nil, false) }
        self.options = options
    }

    /// Adds a glucose day; returns the previous series' set when this day starts another series.
    mutating func add(_ d: DayAssembler.Day, key: DailyTransform.SeriesKey) -> Done? {
        guard active else { return nil }
        var done: Done?
        if let c = current, c.series != d.series { done = finish() }
        if current == nil { current = (d.series, key, d.stats.unit) }
        if let from, d.day < from { return done }
        if let to, d.day > to { return done }
        dayFlags[d.day] = (d.stats.below, d.stats.above)
        times.append(contentsOf: d.times)
        values.append(contentsOf: d.values)
        return done
    }

    /// The current series' set (nil when it had no day inside the period).
    mutating func finish() -> Done? {
        defer {
            current = nil
            times.removeAll()
            values.removeAll()
            dayFlags.removeAll()
        }
        guard let c = current, !times.isEmpty else { return nil }
        let firstDay = from ?? CivilDate.floorDiv(times[0], 86_400)
        let lastDay = to ?? CivilDate.floorDiv(times[times.count - 1], 86_400)
        let r = GlucoseMetrics.compute(times: times, values: values, options: options, withAGP: true,
                                       period: (firstDay, lastDay))
        return (MetricSet(subject: c.key.subject, metric: c.key.metric, unit: c.unit, firstDay: firstDay, lastDay: lastDay,
                          values: r.values, agp: r.agp), dayFlags)
    }
}
