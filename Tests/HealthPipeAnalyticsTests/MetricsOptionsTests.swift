import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// The documented options of `daily` (metric sets) and `resample`, and their errors with positions.
@Suite struct MetricsOptionsTests {
    func build(_ component: ComponentDescriptor, _ yaml: String) throws -> any Stage {
        let doc = try ConfigDocument(file: "p.yml", text: yaml)
        return try component.build(ComponentBuilder(stageName: "s", document: doc, node: doc.root, settings: RunSettings()))
    }

    func error(_ component: ComponentDescriptor, _ yaml: String) -> String {
        do { _ = try build(component, yaml); return "no error" } catch { return "\(error)" }
    }

    @Test func goodOptionsBuild() throws {
        #expect(try build(dailyComponent, "per: period\nfrom: 2024-01-01\nto: 2024-01-14\nconga_hours: [2]") is DailyTransform)
        #expect(try build(dailyComponent, "per: none") is DailyTransform)
        #expect(try build(resampleComponent, "step_minutes: 15\nmax_gap_minutes: 60\nsource: grid15") is ResampleTransform)
    }

    @Test func badOptionsPointAtTheirLine() {
        #expect(error(dailyComponent, "per: weekly").contains("p.yml:1:6") )
        #expect(error(dailyComponent, "per: weekly").contains("unknown value 'weekly' for per"))
        #expect(error(dailyComponent, "per: day\nfrom: 2024-01-01").contains("use per: period"))
        #expect(error(dailyComponent, "per: period\nfrom: 2024-02-30").contains("'2024-02-30' is not a date"))
        #expect(error(dailyComponent, "per: period\nfrom: 2024-02-03\nto: 2024-02-01").contains("'from' is after 'to'"))
        #expect(error(dailyComponent, "grid_step_minutes: 7").contains("must divide a day"))
        #expect(error(resampleComponent, "step_minutes: 7").contains("p.yml:1:15"))
        #expect(error(resampleComponent, "max_gap: 45").contains("max_gap"))
    }

    @Test func customStepAndCongaLag() throws {
        // A 15-minute grid: CONGA(2) lag is 8 points; the option reaches the metric set.
        let t = try build(dailyComponent, "per: period\ngrid_step_minutes: 15\nconga_hours: [2]") as! DailyTransform
        let ctx = StageContext.forTesting("daily", name: "d", policy: .quarantine)
        let s = try MetricsReferenceData.readings(file: "all.csv", patient: "adult#001")
        let ms = s.times.indices.map {
            HealthPipeCore.Measurement(subject: Symbol("adult#001"), metric: Metrics.glucose, source: Symbol("cgm"), start: s.times[$0],
                                       utcOffset: 0, value: s.values[$0], unit: CanonicalUnits.glucose)
        }
        var sets: [MetricSet] = []
        try t.process(RecordBatch(measurements: ms), context: ctx) { sets += $0.metricSets }
        try t.finish(context: ctx) { sets += $0.metricSets }
        var o = GlucoseMetrics.Options()
        o.gridStepSeconds = 900
        o.congaHours = [2]
        let direct = GlucoseMetrics.compute(times: s.times, values: s.values, options: o, withAGP: true)
        #expect(sets.count == 1 && sets[0]["conga2"] != nil && sets[0]["conga2"] == direct.values.first { $0.name == "conga2" }?.value)
        #expect(sets[0].agp.count == 96)
        // MAGE stays on the 5-minute grid whatever the step.
        #expect(MetricsReferenceData.agrees(sets[0]["mage_ma"], 75.0399))
    }
}
