import HealthPipeCore

/// Running statistics of one subject, metric and local day, in one pass (Welford for the SD).
struct MetricDay {
    var unit: Symbol
    var count = 0
    var min = Double.infinity
    var max = -Double.infinity
    var mean = 0.0
    var m2 = 0.0
    var bandCounts: [Symbol: Int] = [:]
    var below = false
    var above = false

    init(unit: Symbol) { self.unit = unit }

    @inline(__always)
    mutating func add(_ v: Double, band: Symbol) {
        count += 1
        if v < min { min = v }
        if v > max { max = v }
        let d = v - mean
        mean += d / Double(count)
        m2 += d * (v - mean)
        if !band.isEmpty { bandCounts[band, default: 0] += 1 }
    }

    /// Adds another accumulator of the same day (Chan et al.'s pairwise update of mean and M2):
    /// a day whose readings were spilled to disk in two parts.
    mutating func merge(_ other: MetricDay) {
        guard other.count > 0 else { return }
        guard count > 0 else { self = other; return }
        let n = Double(count), m = Double(other.count)
        let delta = other.mean - mean
        mean += delta * m / (n + m)
        m2 += other.m2 + delta * delta * n * m / (n + m)
        count += other.count
        if other.min < min { min = other.min }
        if other.max > max { max = other.max }
        for (band, c) in other.bandCounts { bandCounts[band, default: 0] += c }
        below = below || other.below
        above = above || other.above
    }

    /// Sample standard deviation (n − 1), nil below two readings.
    var sd: Double? { count > 1 ? (m2 / Double(count - 1)).squareRoot() : nil }
}

/// Event totals of one subject and local day.
struct EventDay {
    var carbs = 0.0
    var insulin = 0.0
    var exerciseMinutes = 0.0
    var illness = false
    var stress = false
}

struct SubjectDay: Hashable {
    var subject: Symbol
    var day: Int64
}

struct MetricDayKey: Hashable {
    var subject: Symbol
    var metric: Symbol
    var day: Int64

    /// The order days are summarised in: subject, metric (by symbol id), day.
    static func precedes(_ a: MetricDayKey, _ b: MetricDayKey) -> Bool {
        (a.subject.id, a.metric.id, a.day) < (b.subject.id, b.metric.id, b.day)
    }
}
