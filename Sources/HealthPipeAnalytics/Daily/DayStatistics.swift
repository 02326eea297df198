import HealthPipeCore

/// Statistics of one subject, metric and local day, fed in canonical order (local time, then
/// value), so every path that sees the same readings gets the same bits: Welford for the SD.
struct DayStatistics {
    var unit: Symbol
    var count = 0
    var min = Double.infinity
    var max = -Double.infinity
    var mean = 0.0
    var m2 = 0.0
    /// Band label id → readings, in first-seen order (a day has at most a handful of bands).
    var bandCounts: [(band: UInt32, count: Int)] = []
    var below = false
    var above = false

    init(unit: Symbol) { self.unit = unit }

    @inline(__always)
    mutating func add(_ v: Double, band: UInt32) {
        count += 1
        if v < min { min = v }
        if v > max { max = v }
        let d = v - mean
        mean += d / Double(count)
        m2 += d * (v - mean)
        guard band != Symbol.empty.id else { return }
        if let i = bandCounts.firstIndex(where: { $0.band == band }) { bandCounts[i].count += 1 }
        else { bandCounts.append((band, 1)) }
    }

    /// Sample standard deviation (n − 1), nil below two readings.
    var sd: Double? { count > 1 ? (m2 / Double(count - 1)).squareRoot() : nil }
}

/// Event totals of one subject and local day.
/// The totals are exact sums (`ExactSum`): the same bits whatever order the events are summed in.
struct EventDay {
    var carbsSum = ExactSum()
    var insulinSum = ExactSum()
    var exerciseSum = ExactSum()
    var carbs: Double { carbsSum.value }
    var insulin: Double { insulinSum.value }
    var exerciseMinutes: Double { exerciseSum.value }
    var illness = false
    var stress = false
}

struct SubjectDay: Hashable {
    var subject: Symbol
    var day: Int64
}
