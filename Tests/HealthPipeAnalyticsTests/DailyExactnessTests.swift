import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import HealthPipeAnalytics

/// The daily stage's output depends on the readings and events alone — never on their order,
/// their repetition or how they were split into batches — and each natural key counts once.
@Suite struct DailyExactnessTests {
    let ctx = StageContext.forTesting("daily", name: "d", policy: .quarantine)
    let s = Symbol("pat")
    let cgm = Symbol("cgm"), meter = Symbol("meter")

    func reading(_ t: Int64, _ v: Double, source: Symbol? = nil, metric: Symbol = Metrics.glucose,
                 unit: Symbol = CanonicalUnits.glucose) -> Measurement {
        Measurement(subject: s, metric: metric, source: source ?? cgm, start: t, utcOffset: 0, value: v, unit: unit)
    }

    /// Three days of 5-minute readings with a meal and an insulin dose a day.
    func data() -> (readings: [Measurement], events: [Event]) {
        var ms: [Measurement] = []
        var x: UInt64 = 7
        for k in Int64(0)..<(3 * 288) {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            ms.append(reading(k * 300 + 17, 60 + Double(x >> 44) / Double(1 << 20) * 200))
        }
        var events: [Event] = []
        for d in Int64(0)..<3 {
            events.append(Event(subject: s, kind: .meal, source: cgm, start: d * 86_400 + 30_000, utcOffset: 0, carbs: 45.5))
            events.append(Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: cgm,
                                start: d * 86_400 + 30_100, utcOffset: 0, insulin: 3.35))
        }
        return (ms, events)
    }

    func run(_ batches: [RecordBatch], per: MetricPeriod? = .day, inMemory: Int = 1 << 17)
        throws -> (days: [DailySummary], sets: [MetricSet]) {
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180, per: per, readingsInMemory: inMemory)
        for b in batches { try t.process(b, context: ctx) { _ in Issue.record("emitted before the end") } }
        var days: [DailySummary] = [], sets: [MetricSet] = []
        try t.finish(context: ctx) { days += $0.dailySummaries; sets += $0.metricSets }
        return (days, sets)
    }

    func same(_ a: (days: [DailySummary], sets: [MetricSet]), _ b: (days: [DailySummary], sets: [MetricSet])) {
        #expect(a.days == b.days)
        #expect(a.sets == b.sets)
    }

    @Test func anyOrderAndBatchingGivesTheSameBits() throws {
        let (ms, ev) = data()
        let ordered = try run([RecordBatch(measurements: ms, events: ev)])
        #expect(ordered.days.count == 3 && ordered.sets.count == 3)
        var g = SystemRandomNumberGenerator()
        for _ in 0..<3 {
            let shuffled = ms.shuffled(using: &g)
            let batches = stride(from: 0, to: shuffled.count, by: 97).map {
                RecordBatch(measurements: Array(shuffled[$0..<min($0 + 97, shuffled.count)]))
            } + [RecordBatch(events: ev.shuffled(using: &g))]
            same(try run(batches.shuffled(using: &g)), ordered)
            same(try run(batches, inMemory: 50), ordered)
        }
        // Newest first (CareLink) and scans last (LibreView).
        same(try run([RecordBatch(measurements: ms.reversed(), events: ev.reversed())]), ordered)
        let period = try run([RecordBatch(measurements: ms, events: ev)], per: .period(from: nil, to: nil))
        same(try run([RecordBatch(measurements: ms.reversed(), events: ev)], per: .period(from: nil, to: nil), inMemory: 64), period)
        #expect(period.sets.count == 1 && period.sets[0]["carbs_g"] == 3 * 45.5)
    }

    @Test func aRepeatedReadingCountsOnceAndTheLastArrivalWins() throws {
        let (ms, ev) = data()
        let once = try run([RecordBatch(measurements: ms, events: ev)])
        let twice = try run([RecordBatch(measurements: ms, events: ev), RecordBatch(measurements: ms, events: ev)])
        same(twice, once)
        // A corrected value for one instant replaces the first.
        var corrected = ms[10]
        corrected.value = 333
        let fixed = try run([RecordBatch(measurements: ms, events: ev), RecordBatch(measurements: [corrected])])
        #expect(fixed.days[0].count == once.days[0].count)
        #expect(fixed.days[0].max == 333)
        var replaced = ms
        replaced[10] = corrected
        same(fixed, try run([RecordBatch(measurements: replaced, events: ev)]))
    }

    @Test func readingsOfOtherSourcesAtOneInstantAllCountAndTheGridTakesTheirMean() throws {
        let base = (0..<288).map { reading(Int64($0) * 300, 100 + Double($0 % 40)) }
        let extra = reading(150 * 300, 200, source: meter)
        let both = try run([RecordBatch(measurements: base + [extra])])
        #expect(both.days[0].count == 289)
        #expect(both.sets[0]["n_readings"] == 289)
        // The grid sees the mean of the two readings at that instant.
        var averaged = base
        averaged[150].value = (base[150].value + 200) / 2
        let mean = try run([RecordBatch(measurements: averaged)])
        #expect(both.sets[0]["mage_ma"] == mean.sets[0]["mage_ma"])
        #expect(both.sets[0]["conga1"] == mean.sets[0]["conga1"])
    }

    @Test func glucoseFlagsAndIndicesApplyToGlucoseOnly() throws {
        let temperature = Symbol("body_temperature")
        let days = try run([RecordBatch(measurements: [
            reading(0, 36.9, metric: temperature, unit: CanonicalUnits.celsius),
            reading(600, 37.4, metric: temperature, unit: CanonicalUnits.celsius),
            // A glucose metric in another unit is not glucose either.
            reading(900, 5.5, unit: Symbol("mmol/L")),
        ])])
        #expect(days.days.count == 2 && days.days.allSatisfy { !$0.hypo && !$0.hyper })
        #expect(days.sets.isEmpty)
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180, glucoseMetrics: [temperature], per: .day)
        try t.process(RecordBatch(measurements: [reading(0, 36.9, metric: temperature, unit: CanonicalUnits.celsius)]), context: ctx) { _ in }
        var sets: [MetricSet] = []
        try t.finish(context: ctx) { sets += $0.metricSets }
        #expect(sets.isEmpty)
    }

    @Test func aRepeatedEventCountsOnce() throws {
        let (ms, ev) = data()
        let once = try run([RecordBatch(measurements: ms, events: ev)])
        let twice = try run([RecordBatch(measurements: ms, events: ev + ev)])
        same(twice, once)
        #expect(once.days[0].carbsGrams == 45.5 && once.days[0].insulinUnits == 3.35)
    }
}
