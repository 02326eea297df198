import HealthPipeCore

/// The metric-day accumulators of a run. Years of exports hold ~100 000 of them (10 years × 25
/// metrics), so beyond `limit` in memory they are sorted and spilled as a run to a scratch file;
/// the end merges the runs (combining a day split across runs) in key order. Memory stays bounded
/// by `limit` however many days the input spans.
final class MetricDayStore {
    private var memory: [MetricDayKey: MetricDay] = [:]
    private var spill: SpillFile?
    let limit: Int

    init(limit: Int = 8192) { self.limit = limit }

    var isEmpty: Bool { memory.isEmpty && spill == nil }
    /// Runs written to the scratch file so far.
    var spilledRuns: Int { spill?.runs.count ?? 0 }

    subscript(key: MetricDayKey) -> MetricDay? {
        get { memory[key] }
        set { memory[key] = newValue }
    }

    /// Spills the in-memory days as one sorted run once there are `limit` of them.
    func spillIfFull() throws {
        guard memory.count >= limit else { return }
        try spillMemory()
    }

    private func spillMemory() throws {
        let file = try spill ?? SpillFile()
        spill = file
        try file.writeRun(takeMemorySorted())
    }

    /// The in-memory days in key order; the table is released before the sort.
    private func takeMemorySorted() -> [(key: MetricDayKey, value: MetricDay)] {
        var entries = Array(memory)
        memory = [:]
        entries.sort { MetricDayKey.precedes($0.key, $1.key) }
        return entries
    }

    /// Every day once, in (subject, metric, day) order, with split days combined; empties the store.
    func drainSorted(_ body: (MetricDayKey, MetricDay) throws -> Void) throws {
        guard spill != nil else {
            for e in takeMemorySorted() { try body(e.key, e.value) }
            return
        }
        if !memory.isEmpty { try spillMemory() }
        guard let file = spill else { return }
        var readers = file.runs.map { file.reader($0) }
        var heads = try readers.indices.map { try readers[$0].read() }
        // A k-way merge by linear scan: a 10-year export makes a handful of runs.
        while true {
            var best = -1
            for i in heads.indices {
                guard let h = heads[i] else { continue }
                if best < 0 || MetricDayKey.precedes(h.key, heads[best]!.key) { best = i }
            }
            guard best >= 0 else { break }
            var (key, day) = heads[best]!
            heads[best] = try readers[best].read()
            for i in heads.indices {
                while let h = heads[i], h.key == key {
                    day.merge(h.value)
                    heads[i] = try readers[i].read()
                }
            }
            try body(key, day)
        }
        spill = nil
    }
}
