import HealthPipeCore

/// A day's total of a metric that adds up (`DayAggregation.addsUp`), each minute counted once:
/// a record's value is spread evenly over the minutes its interval covers (a point record's value
/// falls in its minute); in each minute only the highest-priority source that has a share in it
/// counts (`SourcePriority`), so a phone, a watch and an app that recorded the same walk give one
/// walk's steps. What each source counted is kept, so the choice is visible.
///
/// The shares are summed exactly (`ExactSum`), so the total does not depend on the order of the
/// records; a day with one source is the exact sum of its records. Minutes are UTC minutes; the
/// records are those the daily stage placed on the day (by their start), so two records on either
/// side of midnight are not compared.
struct DayTotal {
    let priority: SourcePriority
    /// Source symbol id → its rank, computed once per source.
    private var ranks: [UInt32: SourcePriority.Rank] = [:]
    /// The day's sources, best first; a record's place here is its source's order for the day.
    private var sources: [UInt32] = []
    /// Per minute of the day's span (from `firstMinute`), the best order that has a share in it.
    private var best: [Int32] = []
    private var firstMinute: Int64 = 0
    /// Each record's source order, in record order.
    private var order: [Int32] = []

    /// A record longer than this is not spread per minute: its value counts in its first minute.
    static let longestSpreadSeconds: Int64 = 86_400

    init(priority: SourcePriority) { self.priority = priority }

    struct Result {
        var total: Double
        /// What each source counted, in name order.
        var bySource: [SourceShare]
    }

    mutating func total(of records: [LedgerReading]) -> Result {
        sources.removeAll(keepingCapacity: true)
        for r in records where !sources.contains(r.source) { sources.append(r.source) }
        if sources.count == 1 {
            var sum = ExactSum()
            for r in records { sum.add(r.value) }
            return Result(total: sum.value, bySource: [SourceShare(source: Symbol(id: sources[0]), amount: sum.value)])
        }
        for s in sources where ranks[s] == nil { ranks[s] = priority.rank(of: Symbol(id: s).text) }
        sources.sort { ranks[$0]! < ranks[$1]! }

        var first = Int64.max, last = Int64.min
        for r in records {
            let span = Self.minuteSpan(r)
            first = min(first, span.first)
            last = max(last, span.last)
        }
        firstMinute = first
        best.removeAll(keepingCapacity: true)
        best.append(contentsOf: repeatElement(Int32.max, count: Int(last - first + 1)))
        order.removeAll(keepingCapacity: true)
        for r in records {
            let o = Int32(sources.firstIndex(of: r.source)!)
            order.append(o)
            let span = Self.minuteSpan(r)
            for m in span.first...span.last {
                let i = Int(m - first)
                if o < best[i] { best[i] = o }
            }
        }
        var bySource = Array(repeating: ExactSum(), count: sources.count)
        var counted = Array(repeating: false, count: sources.count)
        for (r, o) in zip(records, order) {
            Self.forEachMinute(r) { minute, share in
                guard best[Int(minute - firstMinute)] == o else { return }
                bySource[Int(o)].add(share)
                counted[Int(o)] = true
            }
        }
        var total = ExactSum()
        for s in bySource { total.add(s) }
        // A source that won no minute counted nothing: it is left out.
        let shares = sources.indices.compactMap { i -> SourceShare? in
            counted[i] ? SourceShare(source: Symbol(id: sources[i]), amount: bySource[i].value) : nil
        }
        return Result(total: total.value, bySource: shares.sorted { $0.source.text < $1.source.text })
    }

    /// The first and last UTC minute the record has a share in.
    @inline(__always)
    static func minuteSpan(_ r: LedgerReading) -> (first: Int64, last: Int64) {
        let first = CivilDate.floorDiv(r.start, 60), duration = Int64(r.duration)
        guard duration > 0, duration <= longestSpreadSeconds else { return (first, first) }
        return (first, CivilDate.floorDiv(r.start + duration - 1, 60))
    }

    /// Calls `body` with each UTC minute the record covers and the record's share of its value in it.
    @inline(__always)
    static func forEachMinute(_ r: LedgerReading, _ body: (Int64, Double) -> Void) {
        let start = r.start, duration = Int64(r.duration)
        guard duration > 0, duration <= longestSpreadSeconds else {
            body(CivilDate.floorDiv(start, 60), r.value)
            return
        }
        let end = start + duration
        var minute = CivilDate.floorDiv(start, 60)
        while minute * 60 < end {
            let overlap = min(end, minute * 60 + 60) - max(start, minute * 60)
            body(minute, r.value * Double(overlap) / Double(duration))
            minute += 1
        }
    }
}
