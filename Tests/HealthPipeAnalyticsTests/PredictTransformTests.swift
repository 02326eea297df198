import HealthPipeAnalytics
import HealthPipeCore
import Testing

@Suite struct PredictTransformTests {
    func readings(_ values: [Double], subject: String = "p", start: Int64 = 1_704_067_200) -> [HealthPipeCore.Measurement] {
        values.enumerated().map { i, v in
            HealthPipeCore.Measurement(subject: Symbol(subject), metric: Metrics.glucose, source: Symbol("cgm"),
                                       start: start + Int64(i * 300), utcOffset: 3600, value: v, unit: Symbol("mg/dL"))
        }
    }

    func run(_ t: PredictTransform, _ batch: RecordBatch) throws -> [ForecastPoint] {
        var out: [ForecastPoint] = []
        let ctx = StageContext(name: "p", type: "predict", policy: .fail, quarantine: QuarantineWriter(path: "/dev/null"), progress: ProgressMeter())
        try t.process(batch, context: ctx) { out += $0.forecasts }
        try t.finish(context: ctx) { out += $0.forecasts }
        return out
    }

    @Test func everyIssuesSixPointsAtFiveMinuteStepsPerReading() throws {
        let t = PredictTransform(model: .ar2, horizonMinutes: 30, issue: .every)
        let points = try run(t, RecordBatch(measurements: readings([150, 170, 180])))
        #expect(points.count == 12)
        let first = Array(points.prefix(6))
        #expect(first.map(\.value) == [186, 198, 206, 212, 216, 218])
        #expect(first.map { $0.at - $0.issuedAt } == [300, 600, 900, 1200, 1500, 1800])
        #expect(first.allSatisfy { $0.model.text == "ar2" && $0.utcOffset == 3600 && $0.subject.text == "p" })
    }

    @Test func latestKeepsOnlyTheNewestForecastPerSubject() throws {
        let t = PredictTransform(model: .ridge, horizonMinutes: 15, issue: .latest)
        let batch = RecordBatch(measurements: readings(Array(repeating: 120, count: 10), subject: "a")
                                    + readings(Array(repeating: 90, count: 8), subject: "b"))
        let points = try run(t, batch)
        #expect(points.count == 6)
        let start: Int64 = 1_704_067_200
        let aIssued: [Int64] = points.filter { $0.subject.text == "a" }.map(\.issuedAt)
        let bLast: Int64? = points.filter { $0.subject.text == "b" }.map(\.at).last
        #expect(aIssued == [start + 2700, start + 2700, start + 2700])
        #expect(bLast == start + 2100 + 900)
    }
}
