/// The recent readings of one subject, oldest first, trimmed to a time window: enough for the
/// lags and the forecast horizon, so memory stays flat however long the stream is.
struct ReadingHistory {
    private(set) var times: [Int64] = []
    private(set) var values: [Double] = []
    private var head = 0
    let keepSeconds: Int64

    init(keepSeconds: Int64) { self.keepSeconds = keepSeconds }

    var isEmpty: Bool { head == times.count }
    var newestTime: Int64? { isEmpty ? nil : times[times.count - 1] }

    mutating func append(time: Int64, value: Double) {
        times.append(time)
        values.append(value)
        while head < times.count && times[head] < time - keepSeconds { head += 1 }
        if head > 1024 && head * 2 > times.count {
            times.removeFirst(head)
            values.removeFirst(head)
            head = 0
        }
    }

    /// The reading nearest to `target` within ±150 s (half a 5-minute step), searching back from
    /// the newest; nil when there is none (a gap).
    func value(near target: Int64) -> Double? {
        var best: Double?
        var bestDistance = Int64.max
        var i = times.count - 1
        while i >= head {
            let d = times[i] - target
            if d < -150 { break }
            if abs(d) <= 150 && abs(d) < bestDistance {
                best = values[i]
                bestDistance = abs(d)
            }
            i -= 1
        }
        return best
    }

    /// The readings from `since` on, oldest first, as AR2 readings.
    func ar2Readings(since: Int64) -> ArraySlice<NightscoutAR2.Reading> {
        var out: [NightscoutAR2.Reading] = []
        var i = times.count - 1
        while i >= head && times[i] >= since { i -= 1 }
        for j in (i + 1)..<times.count { out.append(.init(time: times[j], mgdl: values[j])) }
        return out[...]
    }
}

/// Insulin and carb events of one subject within the insulin-action window, in time order.
struct TreatmentHistory {
    struct Dose {
        var time: Int64
        var carbs: Double
        var insulin: Double
    }
    private(set) var doses: [Dose] = []
    static let windowSeconds: Int64 = 300 * 60

    mutating func add(time: Int64, carbs: Double, insulin: Double) {
        var i = doses.count
        while i > 0 && doses[i - 1].time > time { i -= 1 }
        doses.insert(Dose(time: time, carbs: carbs, insulin: insulin), at: i)
    }

    mutating func trim(before now: Int64) {
        let cut = now - Self.windowSeconds
        var n = 0
        while n < doses.count && doses[n].time < cut { n += 1 }
        if n > 0 { doses.removeFirst(n) }
    }
}
