import HealthPipeCore

/// Per subject, metric and local day: count, min, max, mean, SD, band shares, hypo/hyper flags,
/// and the day's carbs, insulin, exercise minutes and illness/stress flags — the seeds' day log.
/// Days are local calendar days (each reading's own UTC offset), so travel and DST keep their days.
/// For glucose metrics it also emits `MetricSet`s (the full CGM metric set of docs/analytics.md) per
/// day or for a period, with the period's event totals and hypo/hyper day counts.
public final class DailyTransform: Transform {
    let hypoBelow: Double
    let hyperAbove: Double
    let glucoseMetrics: Set<Symbol>
    private var metricSets: MetricSetCollector?
    private let metricDays: MetricDayStore
    /// Hypo/hyper flags of glucose days, kept from the summaries for period metric sets.
    private var glucoseDayFlags: [MetricDayKey: (below: Bool, above: Bool)] = [:]
    private var eventDays: [SubjectDay: EventDay] = [:]
    private static let illness = Symbol("illness"), stress = Symbol("stress"), activity = Symbol("activity")

    /// Thresholds in mg/dL: a reading below `hypoBelow` marks a hypo day, above `hyperAbove` a hyper day.
    /// `per` chooses the metric sets (nil: none); `options` their grid settings.
    public init(hypoBelow: Double, hyperAbove: Double, glucoseMetrics: Set<Symbol> = [Metrics.glucose],
                per: MetricPeriod? = .day, options: GlucoseMetrics.Options = .init(), daysInMemory: Int = 8192) {
        metricDays = MetricDayStore(limit: daysInMemory)
        self.hypoBelow = hypoBelow
        self.hyperAbove = hyperAbove
        self.glucoseMetrics = glucoseMetrics
        metricSets = per.map { MetricSetCollector(per: $0, options: options) }
    }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var lastKey: MetricDayKey? = nil
        var current: MetricDay? = nil
        // Readings arrive mostly in order: accumulate runs of the same key before touching the dictionary.
        for m in batch.measurements {
            let key = MetricDayKey(subject: m.subject, metric: m.metric, day: m.localDay)
            if key != lastKey {
                if let k = lastKey, let c = current { metricDays[k] = c }
                lastKey = key
                current = metricDays[key] ?? MetricDay(unit: m.unit)
            }
            current!.add(m.value, band: m.band)
            if glucoseMetrics.contains(m.metric) {
                metricSets?.add(m)
                if m.value < hypoBelow || m.flags.contains(.belowSensorRange) { current!.below = true }
                if m.value > hyperAbove || m.flags.contains(.aboveSensorRange) { current!.above = true }
            }
        }
        if let k = lastKey, let c = current { metricDays[k] = c }
        try metricDays.spillIfFull()
        // Completed days go out at once, so memory does not grow with the number of days.
        if let finished = metricSets?.takeFinished(), !finished.isEmpty { try emit(RecordBatch(metricSets: finished)) }

        for e in batch.events {
            let key = SubjectDay(subject: e.subject, day: e.localDay)
            switch e.kind {
            case .meal: eventDays[key, default: EventDay()].carbs += e.carbs ?? 0
            case .insulin: eventDays[key, default: EventDay()].insulin += e.insulin ?? 0
            case .exercise: eventDays[key, default: EventDay()].exerciseMinutes += Double(e.durationSeconds) / 60
            case .episode where e.subtype == Self.illness || e.subtype == Self.stress:
                // An episode marks every local day it spans.
                let lastDay = CivilDate.floorDiv(e.end + Int64(e.utcOffset), 86_400)
                for d in key.day...max(key.day, lastDay) {
                    let k = SubjectDay(subject: e.subject, day: d)
                    if e.subtype == Self.illness { eventDays[k, default: EventDay()].illness = true }
                    else { eventDays[k, default: EventDay()].stress = true }
                }
            default: break
            }
        }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        // Summaries go out 4096 at a time, in (subject, metric, day) order, then days with events
        // only: years of days are never held twice (accumulators and summaries) at once.
        var chunk: [DailySummary] = []
        chunk.reserveCapacity(Self.chunkSize)
        func add(_ summary: DailySummary) throws {
            chunk.append(summary)
            if chunk.count == Self.chunkSize {
                try emit(RecordBatch(dailySummaries: chunk))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        var daysWithReadings = Set<SubjectDay>()
        let keepFlags = metricSets.map { $0.per != .day } ?? false
        try metricDays.drainSorted { key, m in
            let day = SubjectDay(subject: key.subject, day: key.day)
            daysWithReadings.insert(day)
            if keepFlags, glucoseMetrics.contains(key.metric) { glucoseDayFlags[key] = (m.below, m.above) }
            try add(summary(key, m, events: eventDays[day] ?? EventDay()))
        }
        let eventOnly = eventDays.filter { !daysWithReadings.contains($0.key) }
            .sorted { ($0.key.subject.id, $0.key.day) < ($1.key.subject.id, $1.key.day) }
        for (day, ev) in eventOnly {
            // Days with events but no readings still get a row, so their totals are not lost.
            try add(DailySummary(subject: day.subject, metric: Self.activity, day: day.day, unit: .empty, count: 0,
                                 min: .nan, max: .nan, mean: .nan, sd: nil, bandPercents: [], hypo: false, hyper: false,
                                 carbsGrams: ev.carbs, insulinUnits: ev.insulin, exerciseMinutes: ev.exerciseMinutes,
                                 illness: ev.illness, stress: ev.stress))
        }
        if !chunk.isEmpty { try emit(RecordBatch(dailySummaries: chunk)) }
        chunk = []
        if var collector = metricSets {
            metricSets = nil
            var sets = collector.finish()
            if collector.lateReadings > 0 {
                context.warn("\(collector.lateReadings) glucose readings arrived after their day's metrics were computed and are not in them")
            }
            // Chunk by chunk, releasing what was emitted, so the sets are not held twice.
            while !sets.isEmpty {
                let n = min(1024, sets.count)
                let chunk = collector.per == .day ? Array(sets[..<n]) : sets[..<n].map(withDayTotals)
                try emit(RecordBatch(metricSets: chunk))
                sets.removeFirst(n)
            }
        }
        glucoseDayFlags.removeAll()
        eventDays.removeAll()
    }

    static let chunkSize = 4096
    /// Sorted runs of days written to the scratch file so far (until `finish` merges them).
    var spilledDayRuns: Int { metricDays.spilledRuns }

    /// The summary row of one metric's day.
    private func summary(_ key: MetricDayKey, _ m: MetricDay, events ev: EventDay) -> DailySummary {
        let shares = m.bandCounts.map { BandShare(band: $0.key, percent: 100 * Double($0.value) / Double(m.count)) }
            .sorted { $0.band.text < $1.band.text }
        return DailySummary(subject: key.subject, metric: key.metric, day: key.day, unit: m.unit, count: m.count,
                            min: m.min, max: m.max, mean: m.mean, sd: m.sd, bandPercents: shares,
                            hypo: m.below, hyper: m.above, carbsGrams: ev.carbs, insulinUnits: ev.insulin,
                            exerciseMinutes: ev.exerciseMinutes, illness: ev.illness, stress: ev.stress)
    }

    /// Adds a period's event totals and hypo/hyper day counts to its metric set (a day's are in its
    /// daily summary, which is complete only at the end, while day sets go out as soon as computed).
    private func withDayTotals(_ set: MetricSet) -> MetricSet {
        var s = set
        var carbs = 0.0, insulin = 0.0, exercise = 0.0, illness = 0.0, stress = 0.0, hypo = 0.0, hyper = 0.0
        for d in set.firstDay...max(set.firstDay, set.lastDay) {
            if let e = eventDays[SubjectDay(subject: set.subject, day: d)] {
                carbs += e.carbs
                insulin += e.insulin
                exercise += e.exerciseMinutes
                if e.illness { illness += 1 }
                if e.stress { stress += 1 }
            }
            if let m = glucoseDayFlags[MetricDayKey(subject: set.subject, metric: set.metric, day: d)] {
                if m.below { hypo += 1 }
                if m.above { hyper += 1 }
            }
        }
        s.values += [NamedValue("hypo_days", hypo), NamedValue("hyper_days", hyper), NamedValue("carbs_g", carbs),
                     NamedValue("insulin_u", insulin), NamedValue("exercise_min", exercise),
                     NamedValue("illness_days", illness), NamedValue("stress_days", stress)]
        return s
    }
}

struct DailyOptions: Decodable {
    var hypo_below: Double?
    var hyper_above: Double?
    var unit: GlucoseUnit?
    var metrics: [String]?
    var per: String?
    var from: String?
    var to: String?
    var grid_step_minutes: Int?
    var max_gap_minutes: Int?
    var conga_hours: [Int]?
}

public let dailyComponent = ComponentDescriptor(
    name: "daily", role: .transform, family: "HealthPipeAnalytics",
    summary: "Per subject, metric and local day: count, min, max, mean, SD (n−1), percentage of readings in each band "
        + "(from classify), hypo/hyper flags, carbs and insulin totals, exercise minutes, illness/stress flags. Days "
        + "with events but no readings get a row with metric 'activity'. For glucose it also emits metric sets per day "
        + "or period: mean, SD, CV, quartiles, GMI, eA1c, % <54/54–69/70–180/181–250/>250, LBGI, HBGI, J-index, GRI, "
        + "ADRR, MAGE (moving average), CONGA, MODD, active %, AGP percentiles by time of day (periods only) — "
        + "iglu-compatible definitions, see docs/analytics.md.",
    options: [
        OptionDoc("hypo_below", "number", default: "4.0 mmol/L (72 mg/dL)", "a glucose reading below this marks a hypo day"),
        OptionDoc("hyper_above", "number", default: "10.0 mmol/L (180 mg/dL)", "a glucose reading above this marks a hyper day"),
        OptionDoc("unit", "mg/dL | mmol/L", default: "mmol/L", "unit of hypo_below and hyper_above"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "metrics that get hypo/hyper flags and metric sets"),
        OptionDoc("per", "day | period | none", default: "day", "metric sets per local day, for one period, or none"),
        OptionDoc("from", "YYYY-MM-DD", default: "the first reading's day", "first local day of the period (per: period)"),
        OptionDoc("to", "YYYY-MM-DD", default: "the last reading's day", "last local day of the period (per: period)"),
        OptionDoc("grid_step_minutes", "integer dividing 1440", default: "5", "grid step for CONGA, MODD and AGP (MAGE always uses 5)"),
        OptionDoc("max_gap_minutes", "integer", default: "45", "longest gap the grid bridges by interpolation"),
        OptionDoc("conga_hours", "list of integers", default: "[]", "extra CONGA(n) lags besides conga1 and conga24_iglu_default"),
    ],
    accepts: [.measurements, .events], produces: [.dailySummaries, .metricSets],
    build: { b in
        let o = try b.options(DailyOptions.self)
        let unit = o.unit ?? .mmol
        let low = unit.toMgdl(o.hypo_below ?? (unit == .mmol ? 4.0 : 72))
        let high = unit.toMgdl(o.hyper_above ?? (unit == .mmol ? 10.0 : 180))
        guard low < high else { throw b.error("hypo_below must be lower than hyper_above", option: "hypo_below") }
        var grid = GlucoseMetrics.Options()
        let step = o.grid_step_minutes ?? 5
        guard step > 0, 1440 % step == 0 else { throw b.error("grid_step_minutes must divide a day (1440 minutes)", option: "grid_step_minutes") }
        grid.gridStepSeconds = Int64(step) * 60
        let gap = o.max_gap_minutes ?? 45
        guard gap >= 0 else { throw b.error("max_gap_minutes cannot be negative", option: "max_gap_minutes") }
        grid.maxGapSeconds = Int64(gap) * 60
        grid.congaHours = o.conga_hours ?? []
        guard grid.congaHours.allSatisfy({ $0 > 0 }) else { throw b.error("conga_hours must be positive", option: "conga_hours") }
        return DailyTransform(hypoBelow: low, hyperAbove: high, glucoseMetrics: Set((o.metrics ?? ["glucose"]).map { Symbol($0) }),
                              per: try o.period(b), options: grid)
    })

/// Everything HealthPipeAnalytics registers.
public enum AnalyticsPlugin {
    public static var components: [ComponentDescriptor] {
        [classifyComponent, dailyComponent, resampleComponent, predictComponent, alertsComponent] + SessionsPlugin.components
    }
}
