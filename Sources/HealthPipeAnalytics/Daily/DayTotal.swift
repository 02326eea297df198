import HealthPipeCore

/// A day's total of a metric that adds up (`DayAggregation.addsUp`), each minute counted once:
/// a record's value is spread evenly over the minutes its interval covers (a point record's value
/// falls in its minute); in each minute only the highest-priority source that has a share in it
/// counts (`SourcePriority`), so a phone, a watch and an app that recorded the same walk give one
/// walk's steps. What each source counted is kept, so the choice is visible.
///
/// The shares are summed exactly (`ExactSum`), so the total does not depend on the order of the
/// records. Minutes are UTC minutes; the records are those the daily stage placed on the day (by
/// their start), so two records on either side of midnight are not compared.
struct DayTotal {
    let priority: SourcePriority
    /// Source symbol id → its rank, computed once per source.
    private var ranks: [UInt32: SourcePriority.Rank] = [:]
    /// Per minute, the winning source of the day being totalled (reused from day to day).
    private var winners: [Int64: UInt32] = [:]

    /// A record longer than this is not spread per minute: its value counts in its first minute.
    static let longestSpreadSeconds: Int64 = 86_400

    init(priority: SourcePriority) { self.priority = priority }

    struct Result {
        var total: Double
        /// What each source counted, in name order.
        var bySource: [SourceShare]
    }

    mutating func total(of records: [LedgerReading]) -> Result {
        winners.removeAll(keepingCapacity: true)
        for r in records {
            let rank = rank(r.source)
            Self.forEachMinute(r) { minute, _ in
                if let w = winners[minute], w == r.source || ranks[w]! < rank { return }
                winners[minute] = r.source
            }
        }
        var total = ExactSum()
        var bySource: [UInt32: ExactSum] = [:]
        for r in records {
            Self.forEachMinute(r) { minute, share in
                guard winners[minute] == r.source else { return }
                total.add(share)
                bySource[r.source, default: ExactSum()].add(share)
            }
        }
        let sources = bySource.map { SourceShare(source: Symbol(id: $0.key), amount: $0.value.value) }.sorted { $0.source.text < $1.source.text }
        return Result(total: total.value, bySource: sources)
    }

    private mutating func rank(_ source: UInt32) -> SourcePriority.Rank {
        if let r = ranks[source] { return r }
        let r = priority.rank(of: Symbol(id: source).text)
        ranks[source] = r
        return r
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
