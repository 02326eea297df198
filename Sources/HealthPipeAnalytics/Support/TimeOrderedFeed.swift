import HealthPipeCore

/// Hands a transform that needs time order (resample, predict, alerts) each subject's readings and
/// events in time order, each natural key once (the last arrival wins), whatever order they came in.
/// When the pipeline guarantees that order already (a time-ordered source, e.g. re-aggregation's
/// sqlite-source) batches pass straight through; otherwise everything is kept in a spillable
/// ledger and replayed at the end — a stream never acts on a heuristic that out-of-order files break.
final class TimeOrderedFeed {
    let passThrough: Bool
    private let readings: ExternalSorter<ReplayReading>
    private let events: ExternalSorter<LedgerEvent>
    static let batchSize = 4096

    init(inputTimeOrdered: Bool, purpose: String, inMemory: Int = 1 << 16) {
        passThrough = inputTimeOrdered
        readings = ExternalSorter(purpose: purpose, runCapacity: inMemory)
        events = ExternalSorter(purpose: purpose, runCapacity: max(2, inMemory / 4))
    }

    /// Processes `batch` now (time-ordered input) or keeps it for `finish`.
    func add(_ batch: RecordBatch, _ body: (RecordBatch) throws -> Void) throws {
        if passThrough { return try body(batch) }
        for m in batch.measurements where m.value.isFinite && !m.flags.contains(.interpolated) {
            try readings.append(ReplayReading(m))
        }
        for e in batch.events { try events.append(LedgerEvent(e)) }
    }

    /// Replays what was kept: per subject, readings and events merged by time (an event before the
    /// readings at its instant), in batches.
    func finish(_ body: (RecordBatch) throws -> Void) throws {
        guard !passThrough else { return }
        var rs = try readings.sorted(), es = try events.sorted()
        var nextReading = try Self.deduplicated(&rs, same: { $0.sameKey($1) })
        var nextEvent = try Self.deduplicated(&es, same: { $0.sameKey($1) })
        var batch = RecordBatch()
        while nextReading.current != nil || nextEvent.current != nil {
            let takeEvent: Bool
            switch (nextReading.current, nextEvent.current) {
            case let (r?, e?): takeEvent = (e.subject, e.start) <= (r.subject, r.start)
            case (nil, _?): takeEvent = true
            default: takeEvent = false
            }
            if takeEvent {
                batch.events.append(nextEvent.current!.event)
                try nextEvent.advance(&es)
            } else {
                batch.measurements.append(nextReading.current!.measurement)
                try nextReading.advance(&rs)
            }
            if batch.measurements.count + batch.events.count >= Self.batchSize {
                try body(batch)
                batch = RecordBatch()
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// A sorted stream with each run of equal keys reduced to its last record.
    struct Deduplicated<R: SortableRecord> {
        var current: R?
        private var lookahead: R?
        let same: (R, R) -> Bool

        init(first: R?, same: @escaping (R, R) -> Bool) {
            lookahead = first
            self.same = same
        }

        mutating func advance(_ source: inout SortedRecords<R>) throws {
            current = nil
            guard var r = lookahead else { return }
            lookahead = try source.next()
            while let n = lookahead, same(r, n) {
                r = n
                lookahead = try source.next()
            }
            current = r
        }
    }

    static func deduplicated<R>(_ source: inout SortedRecords<R>, same: @escaping (R, R) -> Bool) throws -> Deduplicated<R> {
        var d = Deduplicated(first: try source.next(), same: same)
        try d.advance(&source)
        return d
    }
}

/// A reading kept for a time-ordered replay (48 bytes): sorted by subject, time, then the rest of
/// its natural key (metric, source, end), so one key's arrivals sit together.
struct ReplayReading: SortableRecord {
    var start: Int64
    var value: Double
    var subject: UInt32
    var metric: UInt32
    var source: UInt32
    var unit: UInt32
    var band: UInt32
    var flags: UInt32
    var utcOffset: Int32
    var duration: Int32

    init(_ m: Measurement) {
        start = m.start
        value = m.value
        subject = m.subject.id
        metric = m.metric.id
        source = m.source.id
        unit = m.unit.id
        band = m.band.id
        flags = m.flags.rawValue
        utcOffset = m.utcOffset
        duration = Int32(clamping: m.end - m.start)
    }

    var measurement: Measurement {
        Measurement(subject: Symbol(id: subject), metric: Symbol(id: metric), source: Symbol(id: source), start: start,
                    end: start + Int64(duration), utcOffset: utcOffset, value: value, unit: Symbol(id: unit),
                    flags: RecordFlags(rawValue: flags), band: Symbol(id: band))
    }

    func sameKey(_ o: ReplayReading) -> Bool {
        subject == o.subject && start == o.start && metric == o.metric && source == o.source && duration == o.duration
    }

    static func precedes(_ a: ReplayReading, _ b: ReplayReading) -> Bool {
        if a.subject != b.subject { return a.subject < b.subject }
        if a.start != b.start { return a.start < b.start }
        if a.metric != b.metric { return a.metric < b.metric }
        if a.source != b.source { return a.source < b.source }
        return a.duration < b.duration
    }
}
