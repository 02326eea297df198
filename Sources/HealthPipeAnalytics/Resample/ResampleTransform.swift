import HealthPipeCore

/// Streams each subject's readings of the chosen metrics onto the regular grid of `GridResampler`
/// and emits the grid values as new measurements: same subject, metric and unit, source
/// `<source option>` (default `resampled`), flag `.interpolated`, start = end = the grid time.
/// Readings reach it in time order (`TimeOrderedFeed`); local time can still go back where the
/// offset falls (DST, travel), so each series keeps a reorder window in local time and releases
/// readings once they are older than the newest one by more than that window.
public final class ResampleTransform: Transform {
    struct SeriesKey: Hashable { var subject: Symbol, metric: Symbol }

    struct SeriesState {
        var resampler: GridResampler
        var unit: Symbol
        /// Not yet released readings from `head` on, sorted by local time: (local seconds, value, utc offset).
        var pending: [(local: Int64, value: Double, offset: Int32)] = []
        var head = 0
        /// Newest local time seen from each input file (a handful of files: a list, not a table).
        var streams: [(file: Symbol, newest: Int64)] = []
    }

    let metrics: Set<Symbol>
    public let step: Int64, maxGap: Int64
    let reorderWindow: Int64
    let source: Symbol
    /// Series states in order of first appearance, found through `index`.
    private var states: [SeriesState] = []
    private var keys: [SeriesKey] = []
    private var index: [SeriesKey: Int] = [:]
    private var late = 0
    /// Grid points decided by one reading (reused).
    private var points: [(Int64, Double)] = []

    public init(metrics: Set<Symbol> = [Metrics.glucose], stepSeconds: Int64 = 300, maxGapSeconds: Int64 = 45 * 60,
                reorderWindowSeconds: Int64 = 3600, source: Symbol = Symbol("resampled"), inputTimeOrdered: Bool = false) {
        self.metrics = metrics
        step = stepSeconds
        maxGap = maxGapSeconds
        reorderWindow = reorderWindowSeconds
        self.source = source
        feed = TimeOrderedFeed(inputTimeOrdered: inputTimeOrdered, purpose: "\(Self.self) readings")
    }

    /// Readings must come in time order: taken as they come from a time-ordered input, else replayed
    /// in order at the end (`TimeOrderedFeed`).
    private let feed: TimeOrderedFeed

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.add(batch) { try step($0, emit: emit) }
    }

    private func step(_ batch: RecordBatch, emit: (RecordBatch) throws -> Void) throws {
        var out: [Measurement] = []
        // Readings come in long runs of one series: the last metric's verdict and the last series
        // are remembered instead of hashed again for every reading.
        var lastMetric: Symbol?, wanted = false
        var current: (key: SeriesKey, slot: Int)?
        for m in batch.measurements {
            if m.metric != lastMetric {
                lastMetric = m.metric
                wanted = metrics.contains(m.metric)
            }
            guard wanted, m.value.isFinite else { continue }
            let key = SeriesKey(subject: m.subject, metric: m.metric)
            let slot: Int
            if let c = current, c.key == key {
                slot = c.slot
            } else {
                slot = self.slot(for: key, unit: m.unit)
                current = (key, slot)
            }
            if !accept(m, into: &states[slot], key: key, out: &out) { late += 1 }
        }
        if !out.isEmpty { try emit(RecordBatch(measurements: out)) }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try feed.finish { try step($0, emit: emit) }
        var out: [Measurement] = []
        let order = keys.indices.sorted { (keys[$0].subject.id, keys[$0].metric.id) < (keys[$1].subject.id, keys[$1].metric.id) }
        for slot in order {
            release(&states[slot], key: keys[slot], upTo: .max, into: &out)
            if out.count >= 4096 { try emit(RecordBatch(measurements: out)); out.removeAll(keepingCapacity: true) }
        }
        if !out.isEmpty { try emit(RecordBatch(measurements: out)) }
        if late > 0 { context.warn("\(late) readings arrived more than the reorder window after newer ones and were not resampled") }
        states.removeAll()
        keys.removeAll()
        index.removeAll()
    }

    private func slot(for key: SeriesKey, unit: Symbol) -> Int {
        if let i = index[key] { return i }
        states.append(SeriesState(resampler: GridResampler(stepSeconds: step, maxGapSeconds: maxGap), unit: unit))
        keys.append(key)
        index[key] = states.count - 1
        return states.count - 1
    }

    /// Queues one reading; false when it is older than what was already released.
    private func accept(_ m: HealthPipeCore.Measurement, into s: inout SeriesState, key: SeriesKey, out: inout [HealthPipeCore.Measurement]) -> Bool {
        let local = m.start + Int64(m.utcOffset)
        if let last = s.resampler.lastTime, local <= last { return local == last }  // a repeated time is no straggler
        var i = s.pending.count
        while i > s.head && s.pending[i - 1].local > local { i -= 1 }
        // Same time as a queued reading: the first one wins.
        if i > s.head && s.pending[i - 1].local == local { return true }
        s.pending.insert((local, m.value, m.utcOffset), at: i)
        let file = m.provenance.file
        let f = s.streams.firstIndex { $0.file == file }
        if local > (f.map { s.streams[$0].newest } ?? .min) {
            if let f { s.streams[f].newest = local } else { s.streams.append((file, local)) }
            release(&s, key: key, upTo: s.streams.lazy.map(\.newest).min()! - reorderWindow, into: &out)
        }
        return true
    }

    private func release(_ s: inout SeriesState, key: SeriesKey, upTo limit: Int64, into out: inout [HealthPipeCore.Measurement]) {
        var n = s.head
        while n < s.pending.count && s.pending[n].local <= limit {
            let r = s.pending[n]
            points.removeAll(keepingCapacity: true)
            s.resampler.add(time: r.local, value: r.value) { points.append(($0, $1)) }
            for (k, v) in points {
                out.append(Measurement(subject: key.subject, metric: key.metric, source: source,
                                       start: s.resampler.time(ofIndex: k) - Int64(r.offset), utcOffset: r.offset,
                                       value: v, unit: s.unit, flags: .interpolated))
            }
            n += 1
        }
        s.head = n
        // Released readings are dropped in bulk, not shifted out one by one.
        if s.head > 64 && s.head * 2 > s.pending.count {
            s.pending.removeFirst(s.head)
            s.head = 0
        }
    }
}

public let resampleComponent = ComponentDescriptor(
    name: "resample", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Puts each subject's readings on a regular grid (iglu CGMS2DayByDay semantics): points at local \
        midnight + k·step (k ≥ 1, so a day is 00:05…24:00), linear interpolation between neighbouring readings, \
        no value before the first or after the last reading, none strictly inside a gap longer than max_gap. \
        Emits the grid values as measurements of the same metric with source 'resampled' and the interpolated \
        flag; the input readings are not forwarded.
        """,
    options: [
        OptionDoc("step_minutes", "integer dividing 1440", default: "5", "grid step"),
        OptionDoc("max_gap_minutes", "integer", default: "45", "longest gap bridged by interpolation (a gap of exactly this is bridged)"),
        OptionDoc("reorder_window_minutes", "integer", default: "60",
                  "readings come in time order (replayed in order at the end unless the input is time-ordered); local "
                  + "time may still go back when the offset falls (DST, travel): by up to this much it is reordered, "
                  + "older stragglers are not resampled (counted in a warning)"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "which measurements to resample"),
        OptionDoc("source", "text", default: "resampled", "source name of the emitted grid measurements"),
    ],
    accepts: [.measurements], produces: [.measurements],
    build: { b in
        let step = try b.minutesDividingDay(b.value("step_minutes"), option: "step_minutes", default: 5)
        let gap = try b.wholeNumber("max_gap_minutes", .gapMinutes) ?? 45
        let window = try b.wholeNumber("reorder_window_minutes", .gapMinutes) ?? 60
        let metrics = try b.value("metrics") ?? ["glucose"]
        return ResampleTransform(metrics: Set(metrics.map { Symbol($0) }), stepSeconds: Int64(step) * 60,
                                 maxGapSeconds: Int64(gap) * 60, reorderWindowSeconds: Int64(window) * 60,
                                 source: Symbol(try b.value("source") ?? "resampled"), inputTimeOrdered: b.inputTimeOrdered)
    })
