import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import HealthPipeAnalytics

@Suite struct DailyTests {
    let ctx = StageContext.forTesting("daily", name: "d", policy: .quarantine)
    let s = Symbol("pat")

    func reading(_ t: Int64, _ v: Double, offset: Int32 = 0, band: String = "") -> Measurement {
        Measurement(subject: s, metric: Metrics.glucose, source: Symbol("cgm"), start: t, utcOffset: offset, value: v,
                    unit: CanonicalUnits.glucose, band: band.isEmpty ? .empty : Symbol(band))
    }

    func run(_ batch: RecordBatch) throws -> [DailySummary] {
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180)
        try t.process(batch, context: ctx) { _ in }
        var out: [DailySummary] = []
        try t.finish(context: ctx) { out += $0.dailySummaries }
        return out
    }

    @Test func statisticsMatchHandComputedValues() throws {
        let values = [100.0, 120, 140, 60, 200]
        let ms = values.enumerated().map { reading(Int64($0.offset) * 300, $0.element, band: $0.element < 72 ? "low" : ($0.element > 180 ? "high" : "normal")) }
        let d = try run(RecordBatch(measurements: ms))
        #expect(d.count == 1)
        let day = d[0]
        #expect(day.count == 5 && day.min == 60 && day.max == 200)
        #expect(abs(day.mean - 124) < 1e-12)
        // Sample SD (n−1) of the five values: sqrt(10720 / 4).
        #expect(abs(day.sd! - (10_720.0 / 4).squareRoot()) < 1e-9)
        #expect(day.hypo && day.hyper)
        #expect(day.bandPercents.map(\.band.text) == ["high", "low", "normal"])
        #expect(day.bandPercents.map(\.percent) == [20, 20, 60])
    }

    @Test func daysAreLocalCalendarDays() throws {
        // 23:30 UTC on day 0 is 00:30 on day 1 at +01:00.
        let d = try run(RecordBatch(measurements: [reading(23 * 3600 + 1800, 100, offset: 3600), reading(3600, 110, offset: 3600)]))
        #expect(d.map(\.day) == [0, 1])
    }

    @Test func eventTotalsAndEpisodes() throws {
        var meal = Event(subject: s, kind: .meal, source: Symbol("app"), start: 3600, utcOffset: 0)
        meal.carbs = 45
        var bolus = Event(subject: s, kind: .insulin, source: Symbol("app"), start: 3700, utcOffset: 0)
        bolus.insulin = 4.5
        let run30 = Event(subject: s, kind: .exercise, source: Symbol("app"), start: 7200, end: 7200 + 1800, utcOffset: 0)
        let ill = Event(subject: s, kind: .episode, subtype: Symbol("illness"), source: Symbol("app"), start: 0, end: 2 * 86_400 + 5, utcOffset: 0)
        let d = try run(RecordBatch(measurements: [reading(600, 100)], events: [meal, bolus, run30, ill]))
        let day0 = d.first { $0.day == 0 && $0.metric == Metrics.glucose }!
        #expect(day0.carbsGrams == 45 && day0.insulinUnits == 4.5 && day0.exerciseMinutes == 30 && day0.illness && !day0.stress)
        // The illness episode spans three local days; days without readings get an 'activity' row.
        #expect(d.filter { $0.illness }.map(\.day) == [0, 1, 2])
        #expect(d.first { $0.day == 2 }?.metric.text == "activity")
    }

    /// A transform that keeps only a few readings in memory (spilling the rest to a scratch file)
    /// summarises bit for bit like one that keeps them all.
    @Test func spillingDaysChangesNothing() throws {
        var batches: [RecordBatch] = []
        for pass in 0..<3 {
            var ms: [Measurement] = []
            for day in Int64(0)..<20 {
                let v = Double(60 + (day * 37 + Int64(pass) * 11) % 150)
                ms.append(reading(day * 86_400 + Int64(pass) * 3600, v, band: v < 72 ? "low" : "normal"))
            }
            var meal = Event(subject: s, kind: .meal, source: Symbol("app"), start: (30 + Int64(pass)) * 86_400, utcOffset: 0)
            meal.carbs = 20
            batches.append(RecordBatch(measurements: ms, events: [meal]))
        }
        func summaries(_ t: DailyTransform, spills: Bool) throws -> [DailySummary] {
            for b in batches { try t.process(b, context: ctx) { _ in } }
            #expect((t.spilledRuns > 0) == spills)
            var out: [DailySummary] = []
            try t.finish(context: ctx) { out += $0.dailySummaries }
            return out
        }
        let whole = try summaries(DailyTransform(hypoBelow: 72, hyperAbove: 180), spills: false)
        let spilled = try summaries(DailyTransform(hypoBelow: 72, hyperAbove: 180, readingsInMemory: 4), spills: true)
        #expect(whole.count == 23)  // 20 glucose days + 3 days with a meal only
        #expect(spilled.map(\.day) == whole.map(\.day))
        #expect(spilled.map(\.count) == whole.map(\.count))
        #expect(zip(spilled, whole).allSatisfy { a, b in
            a.metric == b.metric && a.min.isNaN == b.min.isNaN && (a.min.isNaN || a.mean == b.mean && a.sd == b.sd)
                && a.hypo == b.hypo && a.bandPercents == b.bandPercents && a.carbsGrams == b.carbsGrams
        })
    }

    @Test func singleReadingHasNoSD() throws {
        let d = try run(RecordBatch(measurements: [reading(0, 100)]))
        #expect(d[0].sd == nil && !d[0].hypo && !d[0].hyper)
    }
}
