@testable import HealthPipeAnalytics
import HealthPipeCore
import Testing

/// Metric days beyond the in-memory limit are spilled as sorted runs and merged back exactly.
@Suite struct MetricDayStoreTests {
    static let subjects = [Symbol("ann"), Symbol("bob")]
    static let metrics = [Symbol("glucose"), Symbol("heart_rate"), Symbol("steps")]
    static let low = Symbol("low"), high = Symbol("high")

    /// Deterministic readings in an order that splits many days across runs.
    static func readings() -> [(MetricDayKey, Double, Symbol)] {
        var out: [(MetricDayKey, Double, Symbol)] = []
        var x: UInt64 = 42
        for pass in 0..<3 {
            for day in Int64(0)..<40 {
                for s in subjects {
                    for m in metrics {
                        x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let v = 40 + Double(x >> 40) / Double(1 << 24) * 300 + Double(pass)
                        out.append((MetricDayKey(subject: s, metric: m, day: day), v, v < 70 ? low : v > 250 ? high : .empty))
                    }
                }
            }
        }
        return out
    }

    static func accumulate(limit: Int) throws -> (days: [(MetricDayKey, MetricDay)], runs: Int) {
        let store = MetricDayStore(limit: limit)
        var runs = 0
        for (i, (key, v, band)) in readings().enumerated() {
            var d = store[key] ?? MetricDay(unit: Symbol("u"))
            d.add(v, band: band)
            if v < 60 { d.below = true }
            store[key] = d
            if i % 7 == 0 { try store.spillIfFull() }
            runs = store.spilledRuns
        }
        var out: [(MetricDayKey, MetricDay)] = []
        try store.drainSorted { out.append(($0, $1)) }
        #expect(store.isEmpty)
        return (out, runs)
    }

    @Test func spilledRunsMergeToTheSameDaysInOrder() throws {
        let whole = try Self.accumulate(limit: 1_000_000)
        let spilled = try Self.accumulate(limit: 25)
        #expect(whole.runs == 0)
        #expect(spilled.runs > 5)
        #expect(whole.days.count == 2 * 3 * 40 && spilled.days.count == whole.days.count)
        #expect(zip(spilled.days, spilled.days.dropFirst()).allSatisfy { MetricDayKey.precedes($0.0, $1.0) })
        for ((k1, a), (k2, b)) in zip(whole.days, spilled.days) {
            #expect(k1 == k2)
            #expect(a.count == b.count && a.min == b.min && a.max == b.max && a.bandCounts == b.bandCounts)
            #expect(a.below == b.below && a.above == b.above && a.unit == b.unit)
            #expect(abs(a.mean - b.mean) < 1e-9 && abs(a.sd! - b.sd!) < 1e-9)
        }
    }
}
