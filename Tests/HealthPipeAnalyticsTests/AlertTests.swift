import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

@Suite struct AlertTests {
    let ctx = StageContext.forTesting("alerts", name: "a")

    func run(_ values: [Double], settings: AlertsTransform.Settings = .init()) throws -> [Alert] {
        let t = AlertsTransform(settings: settings)
        let ms = values.enumerated().map { i, v in
            HealthPipeCore.Measurement(subject: Symbol("p"), metric: Metrics.glucose, source: Symbol("cgm"),
                                       start: Int64(i * 300), utcOffset: 0, value: v, unit: Symbol("mg/dL"))
        }
        var out: [Alert] = []
        try t.process(RecordBatch(measurements: ms), context: ctx) { out += $0.alerts }
        try t.finish(context: ctx) { out += $0.alerts }
        return out
    }

    @Test func fallingTraceWarnsBeforeTheLowAndThenReportsTheLowEpisode() throws {
        var s = AlertsTransform.Settings()
        s.model = .ar2
        // Falling 5 mg/dL per 5 min from 110 to 50, flat at 50 for 30 min, then recovering.
        let values = stride(from: 110.0, through: 50, by: -5).map { $0 } + Array(repeating: 50, count: 6) + [60, 70, 80]
        let alerts = try run(values, settings: s)
        let predicted = try #require(alerts.first { $0.kind == .predictedLow })
        let low = try #require(alerts.first { $0.kind == .low })
        // The prediction fires while readings are still ≥ 70, before the first reading below 70.
        #expect(predicted.start < low.start)
        #expect(values[Int(predicted.end / 300)] >= 70)
        #expect(predicted.value < 70 && predicted.model.text == "ar2")
        // Readings below 70: 65 (index 9) … 60 (index 19).
        #expect(low.start == 9 * 300 && low.end == 19 * 300)
        #expect(low.value == 50 && low.threshold == 70 && low.model.isEmpty)
        #expect(!alerts.contains { $0.kind == .high || $0.kind == .predictedHigh })
    }

    @Test func shortExcursionsAreNotEpisodes() throws {
        // 10 minutes above 250 (two readings 5 min apart) is shorter than the 15-minute minimum.
        let alerts = try run([200, 260, 270, 200, 200, 200])
        #expect(!alerts.contains { $0.kind == .high })
        let long = try run([200, 260, 270, 280, 290, 200])
        let high = try #require(long.first { $0.kind == .high })
        #expect(high.start == 300 && high.end == 1200 && high.value == 290 && high.durationSeconds == 900)
    }

    @Test func aGapLongerThanTenMinutesSplitsEpisodes() throws {
        let t = AlertsTransform(settings: .init())
        let times: [Int64] = [0, 300, 600, 900, 1200, 3000, 3300, 3600, 3900]
        let ms = times.map { HealthPipeCore.Measurement(subject: Symbol("p"), metric: Metrics.glucose, source: Symbol("cgm"),
                                                         start: $0, utcOffset: 0, value: 60, unit: Symbol("mg/dL")) }
        var out: [Alert] = []
        try t.process(RecordBatch(measurements: ms), context: ctx) { out += $0.alerts }
        try t.finish(context: ctx) { out += $0.alerts }
        #expect(out.filter { $0.kind == .low }.map(\.start) == [0, 3000])
    }
}
