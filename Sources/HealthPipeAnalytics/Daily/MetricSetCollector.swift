import HealthPipeCore

/// Which stretches of local days get a metric set: each day, or one period (optionally bounded).
public enum MetricPeriod: Sendable, Equatable {
    case day
    /// Inclusive local-day bounds (days since 1970-01-01); nil = from the first / to the last reading.
    case period(from: Int64?, to: Int64?)
}

/// Buffers the glucose readings of each subject, metric and day (or period) and turns them into
/// `MetricSet`s with `GlucoseMetrics`. Per day it keeps at most the open days of each series: a day
/// is computed once a reading two days later arrives (one day of disorder is tolerated), so memory
/// stays at a day or two of readings per series. A period keeps its own readings until the end.
struct MetricSetCollector {
    struct Key: Hashable { var subject: Symbol, metric: Symbol, bucket: Int64 }
    struct SeriesKey: Hashable { var subject: Symbol, metric: Symbol }
    struct Buffer {
        var unit: Symbol
        var times: [Int64] = []
        var values: [Double] = []
        var sorted = true
    }

    let per: MetricPeriod
    let options: GlucoseMetrics.Options
    private var buffers: [Key: Buffer] = [:]
    private var openDays: [SeriesKey: [Int64]] = [:]
    private var closedBefore: [SeriesKey: Int64] = [:]
    private(set) var finished: [MetricSet] = []
    private(set) var lateReadings = 0

    init(per: MetricPeriod, options: GlucoseMetrics.Options = .init()) {
        self.per = per
        self.options = options
    }

    mutating func add(_ m: Measurement) {
        guard m.value.isFinite else { return }
        let local = m.start + Int64(m.utcOffset)
        let day = CivilDate.floorDiv(local, 86_400)
        let series = SeriesKey(subject: m.subject, metric: m.metric)
        let bucket: Int64
        switch per {
        case .period(let from, let to):
            if let from, day < from { return }
            if let to, day > to { return }
            bucket = 0
        case .day:
            if let closed = closedBefore[series], day < closed { lateReadings += 1; return }
            bucket = day
            if !(openDays[series]?.contains(day) ?? false) {
                openDays[series, default: []].append(day)
                // Days two or more before this one are complete.
                let done = openDays[series]!.filter { $0 < day - 1 }
                if !done.isEmpty {
                    openDays[series]!.removeAll { $0 < day - 1 }
                    closedBefore[series] = max(closedBefore[series] ?? .min, day - 1)
                    for d in done.sorted() { close(Key(subject: m.subject, metric: m.metric, bucket: d)) }
                }
            }
        }
        let key = Key(subject: m.subject, metric: m.metric, bucket: bucket)
        var b = buffers[key] ?? Buffer(unit: m.unit)
        if let last = b.times.last, local < last { b.sorted = false }
        b.times.append(local)
        b.values.append(m.value)
        buffers[key] = b
    }

    /// Computes everything still open and returns all sets in subject, metric, day order.
    mutating func finish() -> [MetricSet] {
        for key in buffers.keys.sorted(by: { ($0.subject.id, $0.metric.id, $0.bucket) < ($1.subject.id, $1.metric.id, $1.bucket) }) {
            close(key)
        }
        openDays.removeAll()
        closedBefore.removeAll()
        let out = finished.sorted { ($0.subject.id, $0.metric.text, $0.firstDay) < ($1.subject.id, $1.metric.text, $1.firstDay) }
        finished.removeAll()
        return out
    }

    private mutating func close(_ key: Key) {
        guard var b = buffers.removeValue(forKey: key) else { return }
        if !b.sorted {
            let order = b.times.indices.sorted { (b.times[$0], $0) < (b.times[$1], $1) }
            b.times = order.map { b.times[$0] }
            b.values = order.map { b.values[$0] }
        }
        // Two readings at one time: the first wins, as the grid needs distinct times.
        var times: [Int64] = [], values: [Double] = []
        times.reserveCapacity(b.times.count)
        values.reserveCapacity(b.times.count)
        for i in b.times.indices where times.last != b.times[i] {
            times.append(b.times[i])
            values.append(b.values[i])
        }
        let firstDay: Int64, lastDay: Int64
        switch per {
        case .day: (firstDay, lastDay) = (key.bucket, key.bucket)
        case .period(let from, let to):
            firstDay = from ?? CivilDate.floorDiv(times[0], 86_400)
            lastDay = to ?? CivilDate.floorDiv(times[times.count - 1], 86_400)
        }
        let isPeriod = per != .day
        let r = GlucoseMetrics.compute(times: times, values: values, options: options, withAGP: isPeriod)
        finished.append(MetricSet(subject: key.subject, metric: key.metric, unit: b.unit, firstDay: firstDay, lastDay: lastDay,
                                  values: r.values, agp: r.agp))
    }
}
