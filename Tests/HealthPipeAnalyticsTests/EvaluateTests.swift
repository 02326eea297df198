import HealthPipeAnalytics
import HealthPipeCore
import Testing

@Suite struct EvaluateTests {
    @Test func clarkeZonesFollowTheRuleOrder() {
        #expect(ClarkeZone.of(reference: 60, prediction: 65) == .a)     // both hypo
        #expect(ClarkeZone.of(reference: 100, prediction: 119) == .a)   // within 20 %
        #expect(ClarkeZone.of(reference: 100, prediction: 121) == .b)
        #expect(ClarkeZone.of(reference: 60, prediction: 200) == .e)    // upper E
        #expect(ClarkeZone.of(reference: 200, prediction: 60) == .e)    // lower E
        #expect(ClarkeZone.of(reference: 260, prediction: 150) == .d)   // right D
        #expect(ClarkeZone.of(reference: 60, prediction: 100) == .d)    // left D
        #expect(ClarkeZone.of(reference: 100, prediction: 215) == .c)   // upper C
        #expect(ClarkeZone.of(reference: 170, prediction: 50) == .c)    // lower C: 50 ≤ 1.4·170 − 182 = 56
        #expect(ClarkeZone.of(reference: 190, prediction: 50) == .e)    // E is checked before C
        #expect(ClarkeZone.of(reference: 150, prediction: 75) == .b)    // not ≤ 1.4·150 − 182 = 28: B
        #expect(ClarkeZone.of(reference: 150, prediction: 25) == .c)    // 25 ≤ 28
    }

    @Test func scoresAddUp() {
        var s = ErrorScores()
        s.add(prediction: 110, reference: 100)
        s.add(prediction: 80, reference: 100)
        #expect(s.n == 2)
        #expect(abs(s.rmse - (250.0).squareRoot()) < 1e-12)
        #expect(s.mae == 15)
        #expect(abs(s.mard - 15) < 1e-12)
        #expect(s.clarkeA == 50 && s.clarkeAB == 100)
        let both = s + s
        #expect(both.n == 4 && both.rmse == s.rmse)
    }

    /// The protocol on one reference patient reproduces the published per-patient AR2 RMSE
    /// (reference/analytics.md §8: adult#001 15.3, n 2,004) and beats it with the ridge models.
    @Test func protocolOnAdult001() throws {
        let rows = try #require(try SimGlucose.load()["adult#001"])
        let s = SimGlucose.series("adult#001", rows)
        let ar2 = ForecastEvaluation.evaluate(s, model: .ar2, horizonMinutes: 30)
        #expect(ar2.n == 2004)
        #expect(abs(ar2.rmse - 15.3) < 0.05)
        let ridge = ForecastEvaluation.evaluate(s, model: .ridge, horizonMinutes: 30)
        #expect(ridge.n == 2004 && ridge.rmse < 14.4)
        let treatments = ForecastEvaluation.evaluate(s, model: .ridgeTreatments, horizonMinutes: 30)
        #expect(treatments.n == 2004 && treatments.rmse < 11.7)
    }

    /// The models as published, before `ForecastEnvelope` (issue 36) withholds the forecasts that
    /// move faster than glucose can: AR2 reproduces the reference row (reference/analytics.md §8:
    /// 18.51 on 17,992 forecasts of 9 patients) and the ridge models score every origin. What
    /// `evaluate` reports — the forecasts as issued — is asserted in EvaluateCommandTests.
    @Test func modelsAsPublishedReproduceTheReference() throws {
        let all = try SimGlucose.load()
        let series = all.keys.sorted().filter { $0 != "child#003" }.map { SimGlucose.series($0, all[$0]!) }
        let r = ForecastEvaluation.run(series: series, models: [.ar2, .ridge], withinEnvelope: false)
        let ar2 = try #require(r.overall[.ar2]), ridge = try #require(r.overall[.ridge])
        #expect(ar2.n == 17_992 && abs(ar2.rmse - 18.51) < 0.01 && abs(r.rmseMeanOfSubjects(.ar2) - 17.96) < 0.01)
        #expect(ridge.n == 18_036 && abs(ridge.rmse - 16.46) < 0.01)
        let shown = ForecastEvaluation.run(series: series, models: [.ar2], withinEnvelope: true)
        #expect(shown.overall[.ar2]?.n == 17_956)
    }
}
