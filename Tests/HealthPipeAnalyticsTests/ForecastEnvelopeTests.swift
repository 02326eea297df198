import HealthPipeAnalytics
import Testing

/// Issue 36: a forecast moves no faster than glucose can (4 mg/dL a minute, 20 mg/dL per 5-minute
/// point), stays within the sensors' 40–400 mg/dL, and is shortened where the model's line would
/// leave that — never bent into it.
@Suite struct ForecastEnvelopeTests {
    @Test func pointsWithinTheEnvelopeAreKeptAsTheModelMadeThem() {
        #expect(ForecastEnvelope.maxStep == 20)
        let gentle = [130.0, 121, 109.5, 95, 80, 61]
        #expect(ForecastEnvelope.limited(gentle, from: 141) == gentle)
        // Exactly 4 mg/dL a minute, down and up, is still allowed.
        #expect(ForecastEnvelope.limited([121, 101, 81], from: 141) == [121, 101, 81])
        #expect(ForecastEnvelope.limited([161, 181], from: 141) == [161, 181])
    }

    @Test func aForecastEndsBeforeItsFirstPointThatMovesTooFast() {
        // Issue 36's line: 141 mg/dL, then 81, 45, 23 … — its first point already leaves: no forecast.
        #expect(ForecastEnvelope.limited([81, 45, 23, 20, 18, 15], from: 141).isEmpty)
        // A plausible start that then plunges is kept up to the plunge (shortened, not bent).
        #expect(ForecastEnvelope.limited([130, 115, 80, 60], from: 141) == [130, 115])
        // A zig-zag is a jump too, whichever way.
        #expect(ForecastEnvelope.limited([150, 171, 150], from: 150) == [150])
        // Never more than 4 mg/dL × its minutes from the last reading.
        for origin in stride(from: 20.0, through: 500, by: 37) {
            let wild = (1...12).map { origin + Double($0 * $0) * ($0 % 2 == 0 ? 9 : -7) }
            let kept = ForecastEnvelope.limited(wild, from: origin)
            for (h, v) in kept.enumerated() { #expect(abs(v - origin) <= 20 * Double(h + 1)) }
        }
    }

    @Test func pointsStayWithinTheSensorsRange() {
        // 52 falling 15 a step: 40 at the floor, then held there (the sensor shows LOW).
        #expect(ForecastEnvelope.limited([45, 30, 15], from: 52) == [45, 40, 40])
        #expect(ForecastEnvelope.limited([395, 410, 425], from: 385) == [395, 400, 400])
        // A reading beyond the range (a Libre HIGH at 450) has nowhere within 20 mg/dL to go.
        #expect(ForecastEnvelope.limited([455, 460], from: 450).isEmpty)
        // A LOW reading of 39 (Nightscout's error floor): 40 is one step away.
        #expect(ForecastEnvelope.limited([35, 38], from: 39) == [40, 40])
    }

    @Test func aNonFiniteValueEndsTheForecast() {
        #expect(ForecastEnvelope.limited([120, .nan, 118], from: 121) == [120])
        #expect(ForecastEnvelope.limited([120, .infinity], from: 121) == [120])
        #expect(ForecastEnvelope.limited([120], from: .nan).isEmpty)
        #expect(ForecastEnvelope.limited([], from: 120).isEmpty)
    }

    /// The situation through every model: a steady 164 mg/dL, then one noisy step to 141.
    /// What comes out is either no forecast or one inside the envelope — never the plunge the
    /// population ridge makes of it (about 110 mg/dL at +5 min and 55 at +30: it is not made).
    @Test(arguments: ForecastModelKind.allCases)
    func oneNoisyStepDoesNotMakeAPlunge(model: ForecastModelKind) throws {
        let f = SubjectForecaster(model: model)
        for k in 0..<7 { _ = f.add(time: Int64(k * 300), utcOffset: 0, value: 164) }
        let issued = f.add(time: 7 * 300, utcOffset: 0, value: 141)
        for (h, v) in (issued?.values ?? []).enumerated() {
            #expect(abs(v - 141) <= ForecastEnvelope.maxRatePerMinute * 5 * Double(h + 1), "\(model) +\((h + 1) * 5) min: \(v)")
            #expect(v >= 40 && v <= 400)
        }
        if model == .ridge { #expect(issued == nil) }
    }
}

extension ForecastEnvelope {
    /// `points` as `limit` leaves them (the tests' shorthand; the product limits in place).
    static func limited(_ points: [Double], from origin: Double) -> [Double] {
        var out = points
        limit(&out, from: origin)
        return out
    }
}
