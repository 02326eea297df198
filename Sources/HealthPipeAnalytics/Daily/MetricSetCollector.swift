import HealthPipeCore

/// Which stretches of local days get a metric set: each day, or one period (optionally bounded).
public enum MetricPeriod: Sendable, Equatable {
    case day
    /// Inclusive local-day bounds (days since 1970-01-01); nil = from the first / to the last reading.
    case period(from: Int64?, to: Int64?)
}

/// Buffers the glucose readings of each subject, metric and day (or period) and turns them into
/// `MetricSet`s with `GlucoseMetrics`. Per day, a day is computed once every input file feeding the
/// series (told apart by provenance) has reached two days later — one day of disorder is tolerated —
/// so for time-ordered files memory stays at a day or two of readings per series and file. A
/// reading for a day already computed is counted as late, never silently merged. A period keeps its
/// own readings until the end.
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
    struct Progress {
        var open: Set<Int64> = []
        var closed: Set<Int64> = []
        /// Newest day seen from each input file.
        var streams: [Symbol: Int64] = [:]
        var watermark = Int64.min
    }
    private var progress: [SeriesKey: Progress] = [:]
    /// The buffer being filled, kept out of the dictionary: readings come in runs of one series,
    /// day and file, so most readings take the fast path with no hashing.
    private var currentKey: Key?
    private var currentStream = Symbol.empty
    private var current = Buffer(unit: .empty)
    private(set) var finished: [MetricSet] = []
    private(set) var lateReadings = 0

    init(per: MetricPeriod, options: GlucoseMetrics.Options = .init()) {
        self.per = per
        self.options = options
    }

    mutating func add(_ m: Measurement) {
        // Grid values of `resample` are not readings: counting them would weight the metrics.
        guard m.value.isFinite, !m.flags.contains(.interpolated) else { return }
        let local = m.start + Int64(m.utcOffset)
        let day = CivilDate.floorDiv(local, 86_400)
        let bucket: Int64
        switch per {
        case .period(let from, let to):
            if let from, day < from { return }
            if let to, day > to { return }
            bucket = 0
        case .day:
            bucket = day
        }
        let key = Key(subject: m.subject, metric: m.metric, bucket: bucket)
        if key == currentKey && m.provenance.file == currentStream {
            Self.append(&current, local, m.value)
            return
        }
        park()
        if per == .day {
            let series = SeriesKey(subject: m.subject, metric: m.metric)
            if progress[series]?.closed.contains(day) == true { lateReadings += 1; return }
            // Mutated in place (no copy of the sets per reading).
            let done = Self.advance(&progress[series, default: Progress()], day: day, stream: m.provenance.file)
            for d in done { close(Key(subject: m.subject, metric: m.metric, bucket: d)) }
        }
        current = buffers.removeValue(forKey: key) ?? Buffer(unit: m.unit)
        currentKey = key
        currentStream = m.provenance.file
        Self.append(&current, local, m.value)
    }

    /// Puts the buffer being filled back with the others.
    private mutating func park() {
        guard let k = currentKey else { return }
        buffers[k] = current
        current = Buffer(unit: .empty)
        currentKey = nil
    }

    private static func append(_ b: inout Buffer, _ time: Int64, _ value: Double) {
        if let last = b.times.last, time < last { b.sorted = false }
        b.times.append(time)
        b.values.append(value)
    }

    /// Notes the day as open and the file's progress; returns the days that are now complete.
    private static func advance(_ p: inout Progress, day: Int64, stream: Symbol) -> [Int64] {
        p.open.insert(day)
        guard day > p.streams[stream] ?? .min else { return [] }
        p.streams[stream] = day
        let mark = p.streams.values.min()!
        guard mark > p.watermark else { return [] }
        // Days two or more before every file's newest day are complete.
        p.watermark = mark
        let done = p.open.filter { $0 < mark - 1 }.sorted()
        for d in done {
            p.open.remove(d)
            p.closed.insert(d)
        }
        return done
    }

    /// Days computed so far (per day they are complete and need not wait for the end).
    mutating func takeFinished() -> [MetricSet] {
        var out: [MetricSet] = []
        swap(&out, &finished)
        return out
    }

    /// Computes everything still open and returns all sets in subject, metric, day order.
    mutating func finish() -> [MetricSet] {
        park()
        for key in buffers.keys.sorted(by: { ($0.subject.id, $0.metric.id, $0.bucket) < ($1.subject.id, $1.metric.id, $1.bucket) }) {
            close(key)
        }
        progress.removeAll()
        var out: [MetricSet] = []
        swap(&out, &finished)
        out.sort { ($0.subject.id, $0.metric.id, $0.firstDay) < ($1.subject.id, $1.metric.id, $1.firstDay) }
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
