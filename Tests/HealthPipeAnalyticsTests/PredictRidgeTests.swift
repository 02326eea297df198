import HealthPipeAnalytics
import HealthPipeCore
import Testing

@Suite struct PredictRidgeTests {
    /// The closed-form fit with leave-one-out alpha reproduces the reference population AR(6)
    /// (reference/analytics.md §6.4): 9 patients' training weeks, 18,045 rows, alpha 10^1.5.
    @Test func fitReproducesTheReferencePopulationCoefficients() throws {
        let data = try SimGlucose.load()
        var features: [Double] = [], targets: [Double] = []
        for (patient, rows) in data where patient != "child#003" {
            for i in 5..<(7 * 288 - 6) {
                for k in 0..<6 { features.append(rows[i - k].glucose) }
                targets.append(rows[i + 6].glucose - rows[i].glucose)
            }
        }
        #expect(targets.count == 18_045)
        let m = try #require(RidgeRegression.fit(features: features, width: 6, targets: targets))
        #expect(abs(m.alpha - 31.6227766) < 1e-6)
        let expected = [3.585616434, -6.297147419, 2.910507198, 0.325832135, -0.719237575, 0.024142091]
        #expect(abs(m.intercept - 20.775220833) < 1e-6)
        for (w, e) in zip(m.weights, expected) { #expect(abs(w - e) < 1e-8) }
        // The test vectors of §6.4.
        let vectors: [([Double], Double)] = [
            ([120, 120, 120, 120, 120, 120], 120.341), ([125, 120, 115, 110, 105, 100], 135.764),
            ([100, 105, 110, 115, 120, 125], 92.472), ([200, 200, 200, 200, 200, 200], 186.718),
            ([60, 60, 60, 60, 60, 60], 70.558),
        ]
        for (x, prediction) in vectors { #expect(abs(x[0] + m.predict(x) - prediction) < 0.0005) }
    }

    @Test func ridgeOnAPerfectLinearRelationRecoversIt() throws {
        // y = 3 + 2a − b, tiny alpha: the fit is (almost) exact.
        var f: [Double] = [], y: [Double] = []
        for i in 0..<50 {
            let a = Double(i % 7), b = Double(i % 5) * 1.5
            f += [a, b]
            y.append(3 + 2 * a - b)
        }
        let m = try #require(RidgeRegression.fit(features: f, width: 2, targets: y, alphas: [1e-9]))
        #expect(abs(m.intercept - 3) < 1e-6)
        #expect(abs(m.weights[0] - 2) < 1e-6)
        #expect(abs(m.weights[1] + 1) < 1e-6)
        #expect(RidgeRegression.fit(features: [1, 2], width: 2, targets: [1]) == nil)
    }

    /// The streaming forecaster uses population coefficients for the first week, then fits once
    /// on exactly the protocol's training rows (origins whose 30-min target is before day 8).
    /// The model as made (no envelope): at one origin of the first week its line moves faster than
    /// `ForecastEnvelope` allows, and that forecast is not issued (ForecastEnvelopeTests).
    @Test func forecasterSwitchesToAPersonalFitAfterSevenDays() throws {
        let rows = try #require(try SimGlucose.load()["adult#001"])
        let f = SubjectForecaster(model: .ridge, withinEnvelope: false)
        var populationForecasts = 0
        for (i, r) in rows.enumerated() {
            let out = f.add(time: r.time, utcOffset: 0, value: r.glucose)
            if i < 7 * 288 {
                #expect(f.personal == nil)
                if out != nil { populationForecasts += 1 }
            } else {
                #expect(f.personal != nil)
            }
            #expect((out == nil) == (i < 5))
            if let out { #expect(out.values.count == 6 && out.origin == r.time) }
        }
        #expect(populationForecasts == 7 * 288 - 5)
        // The personal 30-minute model equals a direct fit on the protocol rows with the same features.
        let personal = try #require(f.personal?[5])
        var features: [Double] = [], targets: [Double] = []
        for i in 5..<(7 * 288 - 6) {
            for k in 0..<6 { features.append(rows[i - k].glucose) }
            let angle = Double(rows[i].time % 86_400) / 86_400 * 2 * Double.pi
            features += [sin(angle), cos(angle), sin(2 * angle), cos(2 * angle)]
            targets.append(rows[i + 6].glucose - rows[i].glucose)
        }
        let direct = try #require(RidgeRegression.fit(features: features, width: 10, targets: targets))
        #expect(abs(direct.intercept - personal.intercept) < 1e-6)
        for (a, b) in zip(direct.weights, personal.weights) { #expect(abs(a - b) < 1e-6) }
    }

    @Test func gapsInTheLagsMakeNoForecast() {
        let f = SubjectForecaster(model: .ridge)
        for k in 0..<6 { _ = f.add(time: Int64(k * 300), utcOffset: 0, value: 120) }
        #expect(f.add(time: 1800, utcOffset: 0, value: 120) != nil)
        // 20 minutes later: y(t−5) … are missing.
        #expect(f.add(time: 3000, utcOffset: 0, value: 120) == nil)
        // Jittered readings within ±2.5 min still count as on the grid.
        let g = SubjectForecaster(model: .ridge)
        for k in 0..<6 { _ = g.add(time: Int64(k * 300 + (k % 2 == 0 ? 60 : -60)), utcOffset: 0, value: 120) }
        #expect(g.add(time: 1800, utcOffset: 0, value: 120) != nil)
    }

    @Test func populationForecastOfAFlatTraceRevertsGently() throws {
        let f = SubjectForecaster(model: .ridge)
        var last: (origin: Int64, values: [Double])?
        for k in 0..<6 { last = f.add(time: Int64(k * 300), utcOffset: 0, value: 250) }
        let values = try #require(last?.values)
        // A flat high trace is forecast to drift down, steadily, by less than 50 mg/dL in 30 min.
        #expect(values[5] < 250 && values[5] > 200)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 >= $1 })
    }
}

#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif
