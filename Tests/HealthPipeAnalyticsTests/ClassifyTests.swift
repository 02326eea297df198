import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

@Suite struct ClassifyTests {
    func label(_ scheme: BandScheme, _ g: Double) -> String { scheme.bands[scheme.classify(g)].label.text }

    @Test func consensusEdgesFollowTheReference() {
        // reference/analytics.md §3: 70 and 180 are in range, 54 is level-1 low, 250 is level-1 high.
        let c = BandScheme.consensus
        #expect(label(c, 53.99) == "very_low")
        #expect(label(c, 54) == "low")
        #expect(label(c, 69.99) == "low")
        #expect(label(c, 70) == "in_range")
        #expect(label(c, 180) == "in_range")
        #expect(label(c, 180.5) == "high")
        #expect(label(c, 250) == "high")
        #expect(label(c, 250.01) == "very_high")
    }

    @Test func seedsBandsInMmol() {
        // Seeds: low < 4.0, normal 4.0–10.0, high > 10.0 mmol/L, applied to whole mg/dL.
        let s = BandScheme.seeds
        #expect(label(s, GlucoseUnit.mmol.toMgdl(3.9)) == "low")
        #expect(label(s, GlucoseUnit.mmol.toMgdl(4.0)) == "normal")
        #expect(label(s, GlucoseUnit.mmol.toMgdl(10.0)) == "normal")
        #expect(label(s, GlucoseUnit.mmol.toMgdl(10.1)) == "high")
    }

    @Test func mmolRoundingRuleAgreesWithMmolEdgesForEveryOneDecimalValue() {
        // analytics.md §4: convert, round to whole mg/dL, classify in mg/dL — must agree with
        // classifying the 1-decimal mmol/L value against < 3.0, < 3.9, ≤ 10.0, ≤ 13.9.
        let c = BandScheme.consensus
        for tenth in 10...399 {
            let mmol = Double(tenth) / 10
            let expected: String
            switch tenth {
            case ..<30: expected = "very_low"
            case ..<39: expected = "low"
            case ...100: expected = "in_range"
            case ...139: expected = "high"
            default: expected = "very_high"
            }
            #expect(label(c, GlucoseUnit.mmol.toMgdl(mmol)) == expected, "\(mmol) mmol/L")
        }
        #expect(GlucoseUnit.mmol.toMgdl(10.0) == 180)
        #expect(GlucoseUnit.mmol.toMgdl(13.9) == 250)
    }

    @Test func rangePreset() {
        let r = BandScheme.range
        #expect(label(r, 69) == "low" && label(r, 70) == "in_range" && label(r, 180) == "in_range" && label(r, 181) == "high")
    }

    @Test func transformLabelsOnlyGlucose() throws {
        let t = ClassifyTransform(scheme: .consensus)
        let ctx = StageContext.forTesting("classify", name: "c", policy: .quarantine)
        let glucose = Measurement(subject: Symbol("s"), metric: Metrics.glucose, source: Symbol("x"), start: 0, utcOffset: 0,
                                  value: 65, unit: CanonicalUnits.glucose)
        var hr = glucose
        hr.metric = Metrics.heartRate
        var out: [RecordBatch] = []
        try t.process(RecordBatch(measurements: [glucose, hr]), context: ctx) { out.append($0) }
        #expect(out[0].measurements[0].band.text == "low")
        #expect(out[0].measurements[1].band.isEmpty)
    }
}
