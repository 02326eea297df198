import HealthPipeAnalytics
import Testing

/// Nightscout AR2 golden vectors (reference/analytics.md §6.1, from cgm-remote-monitor 15.0.7).
@Suite struct PredictAR2Tests {
    func forecast(_ readings: [(Int64, Double)]) -> [Double]? {
        NightscoutAR2.forecast(readings.map { NightscoutAR2.Reading(time: 1_700_000_000 + $0.0 * 60, mgdl: $0.1) })?.points
    }

    @Test func goldenVectors() {
        #expect(forecast([(-5, 150), (0, 170)]) == [186, 198, 206, 212, 216, 218])
        #expect(forecast([(-10, 150), (0, 170)]) == [177, 183, 186, 188, 190, 190])
        #expect(forecast([(-5, 100), (0, 100)]) == [100, 101, 101, 102, 102, 103])
        #expect(forecast([(-5, 80), (0, 70)]) == [64, 60, 58, 57, 56, 56])
        #expect(forecast([(-20, 150), (0, 170)]) == nil)
        #expect(forecast([(-5, 300), (0, 350)]) == [389, 400, 400, 400, 400, 400])
        #expect(forecast([(-5, 120), (0, 39)]) == nil)
        #expect(forecast([(-15, 100), (-10, 110), (-5, 39), (0, 130)]) == [138, 144, 148, 151, 154, 155])
    }

    @Test func averageLossAndLevels() {
        func loss(_ p: [Double]) -> Double { (NightscoutAR2.averageLoss(p) * 10_000).rounded() / 10_000 }
        #expect(loss([186, 198, 206, 212, 216, 218]) == 0.0664)
        #expect(loss([177, 183, 186, 188, 190, 190]) == 0.0432)
        #expect(loss([100, 101, 101, 102, 102, 103]) == 0.0064)
        #expect(loss([64, 60, 58, 57, 56, 56]) == 0.1177)
        #expect(loss([389, 400, 400, 400, 400, 400]) == 0.3256)
        #expect(loss([138, 144, 148, 151, 154, 155]) == 0.0105)
    }

    @Test func forecastIsIssuedAtTheRecentBucketAndSkipsLaterReadingsOnlyByBucket() {
        // A lone reading has no previous bucket: no forecast.
        #expect(forecast([(0, 120)]) == nil)
        // The newest valid reading is the origin.
        let f = NightscoutAR2.forecast([NightscoutAR2.Reading(time: 1000, mgdl: 150), NightscoutAR2.Reading(time: 1300, mgdl: 170)])
        #expect(f?.origin == 1300)
    }

    @Test func streamingForecasterMatchesTheDirectCall() {
        let f = SubjectForecaster(model: .ar2)
        #expect(f.add(time: 0, utcOffset: 0, value: 150) == nil)
        let out = f.add(time: 300, utcOffset: 0, value: 170)
        #expect(out?.origin == 300)
        #expect(out?.values == [186, 198, 206, 212, 216, 218])
    }
}
