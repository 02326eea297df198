import HealthPipeCore

/// Streams each subject's readings of the chosen metrics onto the regular grid of `GridResampler`
/// and emits the grid values as new measurements: same subject, metric and unit, source
/// `<source option>` (default `resampled`), flag `.interpolated`, start = end = the grid time.
/// Readings may arrive slightly out of order: each series keeps a reorder window and releases
/// readings once they are older than the newest reading of every input file feeding it (told apart
/// by provenance) by more than that window, so time-ordered files need bounded memory.
public final class ResampleTransform: Transform {
    struct SeriesKey: Hashable { var subject: Symbol, metric: Symbol }

    struct SeriesState {
        var resampler: GridResampler
        var unit: Symbol
        /// Not yet released readings, sorted by local time: (local seconds, value, utc offset).
        var pending: [(local: Int64, value: Double, offset: Int32)] = []
        /// Newest local time seen from each input file.
        var streams: [Symbol: Int64] = [:]
    }

    let metrics: Set<Symbol>
    let step: Int64, maxGap: Int64, reorderWindow: Int64
    let source: Symbol
    private var series: [SeriesKey: SeriesState] = [:]
    private var late = 0

    public init(metrics: Set<Symbol> = [Metrics.glucose], stepSeconds: Int64 = 300, maxGapSeconds: Int64 = 45 * 60,
                reorderWindowSeconds: Int64 = 3600, source: Symbol = Symbol("resampled")) {
        self.metrics = metrics
        step = stepSeconds
        maxGap = maxGapSeconds
        reorderWindow = reorderWindowSeconds
        self.source = source
    }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var out: [Measurement] = []
        for m in batch.measurements where metrics.contains(m.metric) && m.value.isFinite {
            let key = SeriesKey(subject: m.subject, metric: m.metric)
            if series[key] == nil {
                series[key] = SeriesState(resampler: GridResampler(stepSeconds: step, maxGapSeconds: maxGap), unit: m.unit)
            }
            // Mutated in place: no copy of the pending buffer per reading.
            if !accept(m, into: &series[key]!, key: key, out: &out) { late += 1 }
        }
        if !out.isEmpty { try emit(RecordBatch(measurements: out)) }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var out: [Measurement] = []
        for key in series.keys.sorted(by: { ($0.subject.id, $0.metric.id) < ($1.subject.id, $1.metric.id) }) {
            var s = series[key]!
            release(&s, key: key, upTo: .max, into: &out)
            if out.count >= 4096 { try emit(RecordBatch(measurements: out)); out.removeAll(keepingCapacity: true) }
        }
        if !out.isEmpty { try emit(RecordBatch(measurements: out)) }
        if late > 0 { context.warn("\(late) readings arrived more than the reorder window after newer ones and were not resampled") }
        series.removeAll()
    }

    /// Queues one reading; false when it is older than what was already released.
    private func accept(_ m: HealthPipeCore.Measurement, into s: inout SeriesState, key: SeriesKey, out: inout [HealthPipeCore.Measurement]) -> Bool {
        let local = m.start + Int64(m.utcOffset)
        if let last = s.resampler.lastTime, local <= last { return local == last }  // a repeated time is no straggler
        var i = s.pending.count
        while i > 0 && s.pending[i - 1].local > local { i -= 1 }
        // Same time as a queued reading: the first one wins.
        if i > 0 && s.pending[i - 1].local == local { return true }
        s.pending.insert((local, m.value, m.utcOffset), at: i)
        if local > s.streams[m.provenance.file] ?? .min {
            s.streams[m.provenance.file] = local
            release(&s, key: key, upTo: s.streams.values.min()! - reorderWindow, into: &out)
        }
        return true
    }

    private func release(_ s: inout SeriesState, key: SeriesKey, upTo limit: Int64, into out: inout [HealthPipeCore.Measurement]) {
        var n = 0
        while n < s.pending.count && s.pending[n].local <= limit {
            let r = s.pending[n]
            var points: [(Int64, Double)] = []
            s.resampler.add(time: r.local, value: r.value) { points.append(($0, $1)) }
            for (k, v) in points {
                out.append(Measurement(subject: key.subject, metric: key.metric, source: source,
                                       start: s.resampler.time(ofIndex: k) - Int64(r.offset), utcOffset: r.offset,
                                       value: v, unit: s.unit, flags: .interpolated))
            }
            n += 1
        }
        if n > 0 { s.pending.removeFirst(n) }
    }
}

struct ResampleOptions: Decodable {
    var step_minutes: Int?
    var max_gap_minutes: Int?
    var reorder_window_minutes: Int?
    var metrics: [String]?
    var source: String?
}

public let resampleComponent = ComponentDescriptor(
    name: "resample", role: .transform, family: "HealthPipeAnalytics",
    summary: "Puts each subject's readings on a regular grid (iglu CGMS2DayByDay semantics): points at local "
        + "midnight + k·step (k ≥ 1, so a day is 00:05…24:00), linear interpolation between neighbouring readings, "
        + "no value before the first or after the last reading, none strictly inside a gap longer than max_gap. "
        + "Emits the grid values as measurements of the same metric with source 'resampled' and the interpolated "
        + "flag; the input readings are not forwarded.",
    options: [
        OptionDoc("step_minutes", "integer dividing 1440", default: "5", "grid step"),
        OptionDoc("max_gap_minutes", "integer", default: "45", "longest gap bridged by interpolation (a gap of exactly this is bridged)"),
        OptionDoc("reorder_window_minutes", "integer", default: "60",
                  "readings may arrive this much out of order; older stragglers are not resampled (counted in a warning)"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "which measurements to resample"),
        OptionDoc("source", "text", default: "resampled", "source name of the emitted grid measurements"),
    ],
    accepts: [.measurements], produces: [.measurements],
    build: { b in
        let o = try b.options(ResampleOptions.self)
        let step = o.step_minutes ?? 5
        guard step > 0, 1440 % step == 0 else { throw b.error("step_minutes must divide a day (1440 minutes)", option: "step_minutes") }
        let gap = o.max_gap_minutes ?? 45
        guard gap >= 0 else { throw b.error("max_gap_minutes cannot be negative", option: "max_gap_minutes") }
        let window = o.reorder_window_minutes ?? 60
        guard window >= 0 else { throw b.error("reorder_window_minutes cannot be negative", option: "reorder_window_minutes") }
        return ResampleTransform(metrics: Set((o.metrics ?? ["glucose"]).map { Symbol($0) }), stepSeconds: Int64(step) * 60,
                                 maxGapSeconds: Int64(gap) * 60, reorderWindowSeconds: Int64(window) * 60,
                                 source: Symbol(o.source ?? "resampled"))
    })
