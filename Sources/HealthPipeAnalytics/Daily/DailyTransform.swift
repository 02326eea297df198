import HealthPipeCore

/// Per subject, metric and local day: count, min, max, mean, SD, band shares, hypo/hyper flags,
/// and the day's carbs, insulin, exercise minutes and illness/stress flags — the seeds' day log.
/// Days are local calendar days (each reading's own UTC offset), so travel and DST keep their days.
public final class DailyTransform: Transform {
    let hypoBelow: Double
    let hyperAbove: Double
    let glucoseMetrics: Set<Symbol>
    private var metricDays: [MetricDayKey: MetricDay] = [:]
    private var eventDays: [SubjectDay: EventDay] = [:]
    private static let illness = Symbol("illness"), stress = Symbol("stress"), activity = Symbol("activity")

    /// Thresholds in mg/dL: a reading below `hypoBelow` marks a hypo day, above `hyperAbove` a hyper day.
    public init(hypoBelow: Double, hyperAbove: Double, glucoseMetrics: Set<Symbol> = [Metrics.glucose]) {
        self.hypoBelow = hypoBelow
        self.hyperAbove = hyperAbove
        self.glucoseMetrics = glucoseMetrics
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
                if m.value < hypoBelow || m.flags.contains(.belowSensorRange) { current!.below = true }
                if m.value > hyperAbove || m.flags.contains(.aboveSensorRange) { current!.above = true }
            }
        }
        if let k = lastKey, let c = current { metricDays[k] = c }

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
        var out: [DailySummary] = []
        var daysWithReadings = Set<SubjectDay>()
        for (key, m) in metricDays {
            let sd = SubjectDay(subject: key.subject, day: key.day)
            daysWithReadings.insert(sd)
            let ev = eventDays[sd] ?? EventDay()
            let shares = m.bandCounts.map { BandShare(band: $0.key, percent: 100 * Double($0.value) / Double(m.count)) }
                .sorted { $0.band.text < $1.band.text }
            out.append(DailySummary(subject: key.subject, metric: key.metric, day: key.day, unit: m.unit, count: m.count,
                                    min: m.min, max: m.max, mean: m.mean, sd: m.sd, bandPercents: shares,
                                    hypo: m.below, hyper: m.above, carbsGrams: ev.carbs, insulinUnits: ev.insulin,
                                    exerciseMinutes: ev.exerciseMinutes, illness: ev.illness, stress: ev.stress))
        }
        // Days with events but no readings still get a row, so their totals are not lost.
        for (key, ev) in eventDays where !daysWithReadings.contains(key) {
            out.append(DailySummary(subject: key.subject, metric: Self.activity, day: key.day, unit: .empty, count: 0,
                                    min: .nan, max: .nan, mean: .nan, sd: nil, bandPercents: [], hypo: false, hyper: false,
                                    carbsGrams: ev.carbs, insulinUnits: ev.insulin, exerciseMinutes: ev.exerciseMinutes,
                                    illness: ev.illness, stress: ev.stress))
        }
        out.sort { ($0.subject.id, $0.day, $0.metric.text) < ($1.subject.id, $1.day, $1.metric.text) }
        var i = 0
        while i < out.count {
            try emit(RecordBatch(dailySummaries: Array(out[i..<min(i + 4096, out.count)])))
            i += 4096
        }
        metricDays.removeAll()
        eventDays.removeAll()
    }
}

struct DailyOptions: Decodable {
    var hypo_below: Double?
    var hyper_above: Double?
    var unit: GlucoseUnit?
    var metrics: [String]?
}

public let dailyComponent = ComponentDescriptor(
    name: "daily", role: .transform, family: "HealthPipeAnalytics",
    summary: "Per subject, metric and local day: count, min, max, mean, SD (n−1), percentage of readings in each band "
        + "(from classify), hypo/hyper flags, carbs and insulin totals, exercise minutes, illness/stress flags. Days "
        + "with events but no readings get a row with metric 'activity'.",
    options: [
        OptionDoc("hypo_below", "number", default: "4.0 mmol/L (72 mg/dL)", "a glucose reading below this marks a hypo day"),
        OptionDoc("hyper_above", "number", default: "10.0 mmol/L (180 mg/dL)", "a glucose reading above this marks a hyper day"),
        OptionDoc("unit", "mg/dL | mmol/L", default: "mmol/L", "unit of hypo_below and hyper_above"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "metrics that get hypo/hyper flags"),
    ],
    accepts: [.measurements, .events], produces: [.dailySummaries],
    build: { b in
        let o = try b.options(DailyOptions.self)
        let unit = o.unit ?? .mmol
        let low = unit.toMgdl(o.hypo_below ?? (unit == .mmol ? 4.0 : 72))
        let high = unit.toMgdl(o.hyper_above ?? (unit == .mmol ? 10.0 : 180))
        guard low < high else { throw b.error("hypo_below must be lower than hyper_above", option: "hypo_below") }
        return DailyTransform(hypoBelow: low, hyperAbove: high, glucoseMetrics: Set((o.metrics ?? ["glucose"]).map { Symbol($0) }))
    })

/// Everything HealthPipeAnalytics registers.
public enum AnalyticsPlugin {
    public static var components: [ComponentDescriptor] { [classifyComponent, dailyComponent] + SessionsPlugin.components }
}
