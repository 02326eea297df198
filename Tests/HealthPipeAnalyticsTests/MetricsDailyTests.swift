import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// The daily transform's metric sets: per day and per period, streamed in batches, equal to the
/// direct computation on the same readings (which MetricsReferenceTests ties to iglu).
@Suite struct MetricsDailyTests {
    let ctx = StageContext.forTesting("daily", name: "d", policy: .quarantine)

    func run(_ per: MetricPeriod?, _ ms: [HealthPipeCore.Measurement], events: [Event] = []) throws -> [MetricSet] {
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180, per: per)
        var out: [MetricSet] = []
        try t.process(RecordBatch(events: events), context: ctx) { out += $0.metricSets }
        for i in stride(from: 0, to: ms.count, by: 1000) {
            try t.process(RecordBatch(measurements: Array(ms[i..<min(i + 1000, ms.count)])), context: ctx) { out += $0.metricSets }
        }
        try t.finish(context: ctx) { out += $0.metricSets }
        return out
    }

    func readings(_ patient: String) throws -> (MetricsReferenceData.Series, [HealthPipeCore.Measurement]) {
        let s = try MetricsReferenceData.readings(file: "all.csv", patient: patient)
        let ms = s.times.indices.map {
            HealthPipeCore.Measurement(subject: Symbol(patient), metric: Metrics.glucose, source: Symbol("cgm"), start: s.times[$0],
                                       utcOffset: 0, value: s.values[$0], unit: CanonicalUnits.glucose)
        }
        return (s, ms)
    }

    @Test func perDaySetsMatchTheReferenceDays() throws {
        let (_, ms) = try readings("adult#001")
        let sets = try run(.day, ms)
        #expect(sets.count == 14)
        #expect(sets.allSatisfy { $0.firstDay == $0.lastDay && $0.agp.isEmpty })
        let rows = try MetricsReferenceData.metricRows().filter {
            $0.source == "regular" && $0.patient == "adult#001" && $0.period != "all" && $0.tool == "iglu-python"
        }
        #expect(rows.count > 300)
        for r in rows {
            let day = MetricsReferenceData.seconds(r.period + "T00:00:00") / 86_400
            let set = sets.first { $0.firstDay == day }
            #expect(MetricsReferenceData.agrees(set?[String(r.metric)], r.value), "\(r.period) \(r.metric)")
        }
    }

    @Test func periodSetHasAGPAndDayTotals() throws {
        let (s, ms) = try readings("child#001")
        var meal = Event(subject: Symbol("child#001"), kind: .meal, source: Symbol("app"), start: s.times[10], utcOffset: 0)
        meal.carbs = 40
        let sets = try run(.period(from: nil, to: nil), ms, events: [meal])
        #expect(sets.count == 1)
        let p = sets[0]
        #expect(CivilDate.isoDate(fromDays: p.firstDay) == "2024-01-01" && CivilDate.isoDate(fromDays: p.lastDay) == "2024-01-14")
        #expect(p.agp.count == 288 && p.agp.first?.minuteOfDay == 0 && p.agp.allSatisfy { $0.count == 14 || $0.count == 13 })
        #expect(p["carbs_g"] == 40)
        #expect(p["n_readings"] == 4032)
        let direct = GlucoseMetrics.compute(times: s.times, values: s.values, withAGP: true)
        for v in direct.values { #expect(p[v.name] == v.value, "\(v.name)") }
    }

    @Test func boundedPeriodTakesOnlyItsDays() throws {
        let (_, ms) = try readings("adult#001")
        let from = CivilDate.days(year: 2024, month: 1, day: 3), to = CivilDate.days(year: 2024, month: 1, day: 4)
        let sets = try run(.period(from: from, to: to), ms)
        #expect(sets.count == 1 && sets[0].firstDay == from && sets[0].lastDay == to && sets[0]["n_readings"] == 576)
        #expect(try run(nil, ms).isEmpty)
    }

    @Test func aStrayTimestampCenturiesAwayDoesNotBuildAHugeGrid() {
        let r = GlucoseMetrics.compute(times: [-50_000 * 86_400, 0, 300], values: [100, 110, 120], withAGP: true)
        #expect(r.values.first { $0.name == "mean" }?.value == 110)
        #expect(!r.values.contains { $0.name == "mage_ma" || $0.name == "modd" } && r.agp.isEmpty)
    }

    @Test func resampledGridValuesAreNotReadings() throws {
        let (_, ms) = try readings("adult#001")
        var grid = ms
        for i in grid.indices { grid[i].start += 150; grid[i].value += 1; grid[i].flags = .interpolated }
        let plain = try run(.period(from: nil, to: nil), ms)
        let mixed = try run(.period(from: nil, to: nil), ms + grid)
        #expect(plain.map(\.values) == mixed.map(\.values))
    }

    @Test func twoFilesInterleavedLoseNoReadings() throws {
        // Two exports of one subject (first and second week) arrive in alternating batches, the later file first.
        let (_, ms) = try readings("adult#001")
        var tagged = ms
        for i in tagged.indices { tagged[i].provenance = Provenance(file: Symbol(i < 2016 ? "week1.csv" : "week2.csv"), line: Int64(i)) }
        let week1 = Array(tagged[..<2016]), week2 = Array(tagged[2016...])
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180, per: .day)
        var sets: [MetricSet] = []
        for i in stride(from: 0, to: 2016, by: 500) {
            try t.process(RecordBatch(measurements: Array(week2[i..<min(i + 500, 2016)])), context: ctx) { sets += $0.metricSets }
            try t.process(RecordBatch(measurements: Array(week1[i..<min(i + 500, 2016)])), context: ctx) { sets += $0.metricSets }
        }
        try t.finish(context: ctx) { sets += $0.metricSets }
        #expect(sets.count == 14 && sets.allSatisfy { $0["n_readings"] == 288 })
        #expect(ctx.warnings.isEmpty)
        let direct = try run(.day, ms)
        #expect(sets.map { $0.values } == direct.map { $0.values })
    }
}
