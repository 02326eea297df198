import HealthPipeCore

/// Turns the daily ledger's sorted readings into whole days: drops all but the last arrival of
/// each natural key, feeds each day's readings in canonical order (local time, then value) to its
/// statistics, and hands each finished (series, day) to `finished`.
struct DayAssembler {
    struct Day {
        var series: UInt32
        var day: Int64
        /// A glucose series: hypo/hyper flags, and metric-set values when collected.
        var glucose: Bool
        var stats: DayStatistics
        /// Local times and values in canonical order, when the series wants metric sets.
        var times: [Int64]
        var values: [Double]
        /// The day's total, each minute once, for a metric that adds up (`DayTotal`); nil otherwise.
        var total: DayTotal.Result?
    }

    /// Per series: glucose (hypo/hyper flags, and times/values when `collectValues`), set by the caller.
    var glucose: [Bool]
    /// Per series: its metric adds up (`DayAggregation.addsUp`), set by the caller.
    var addsUp: [Bool]
    let collectValues: Bool
    let hypoBelow: Double, hyperAbove: Double

    private var pending: LedgerReading?
    private var instant: [LedgerReading] = []
    private var current: Day?
    /// The current day's records of a series that adds up, and what totals them.
    private var dayRecords: [LedgerReading] = []
    private var totals: DayTotal

    init(series: Int, collectValues: Bool, hypoBelow: Double, hyperAbove: Double, sourcePriority: SourcePriority = .init()) {
        glucose = Array(repeating: false, count: series)
        addsUp = Array(repeating: false, count: series)
        totals = DayTotal(priority: sourcePriority)
        self.collectValues = collectValues
        self.hypoBelow = hypoBelow
        self.hyperAbove = hyperAbove
    }

    mutating func add(_ r: LedgerReading, finished: (Day) throws -> Void) throws {
        if let p = pending {
            if p.sameKey(r) { pending = r; return }
            try place(p, finished: finished)
        }
        pending = r
    }

    mutating func finish(_ finished: (Day) throws -> Void) throws {
        if let p = pending { try place(p, finished: finished) }
        pending = nil
        closeInstant()
        if let d = closedDay() { try finished(d) }
        current = nil
    }

    private mutating func place(_ r: LedgerReading, finished: (Day) throws -> Void) throws {
        let day = Int64(r.day)
        if current == nil || current!.series != r.series || current!.day != day {
            closeInstant()
            if let d = closedDay() { try finished(d) }
            current = Day(series: r.series, day: day, glucose: glucose[Int(r.series)], stats: DayStatistics(unit: Symbol(id: r.unit)),
                          times: [], values: [], total: nil)
        } else if let first = instant.first, first.local != r.local {
            closeInstant()
        }
        instant.append(r)
    }

    private mutating func closeInstant() {
        guard !instant.isEmpty, current != nil else { instant.removeAll(keepingCapacity: true); return }
        if instant.count > 1 { instant.sort { $0.value < $1.value } }
        let isGlucose = current!.glucose, collect = isGlucose && collectValues
        for r in instant {
            current!.stats.add(r.value, band: r.band)
            current!.stats.unit = Symbol(id: r.unit)
            if isGlucose {
                let flags = RecordFlags(rawValue: r.flags)
                if r.value < hypoBelow || flags.contains(.belowSensorRange) { current!.stats.below = true }
                if r.value > hyperAbove || flags.contains(.aboveSensorRange) { current!.stats.above = true }
            }
            if collect {
                current!.times.append(r.local)
                current!.values.append(r.value)
            }
        }
        if addsUp[Int(current!.series)] { dayRecords.append(contentsOf: instant) }
        instant.removeAll(keepingCapacity: true)
    }

    /// The current day with its total (for a metric that adds up).
    private mutating func closedDay() -> Day? {
        guard var d = current else { return nil }
        if addsUp[Int(d.series)] {
            d.total = totals.total(of: dayRecords)
            dayRecords.removeAll(keepingCapacity: true)
        }
        return d
    }
}
