import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
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
        let ctx = StageContext.forTesting("predict", name: "p")
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

/// Forecasts and alerts need each subject's readings in time order: from a stream in any order
/// (scans listed last, newest first, repeated rows) they are the ones an ordered stream gives.
@Suite struct TimeOrderTests {
    let ctx = StageContext.forTesting("predict", name: "p")

    func series() -> [HealthPipeCore.Measurement] {
        (0..<600).map { (i: Int) -> HealthPipeCore.Measurement in
            let start: Int64 = 1_704_067_200 + Int64(i / 2 * 300)
            let value: Double = 120 + 60 * sin(Double(i) / 40)
            return HealthPipeCore.Measurement(subject: Symbol(i % 2 == 0 ? "a" : "b"), metric: Metrics.glucose, source: Symbol("cgm"),
                                              start: start, utcOffset: 0, value: value, unit: CanonicalUnits.glucose)
        }
    }

    func forecasts(_ batches: [RecordBatch]) throws -> [ForecastPoint] {
        let t = PredictTransform(model: .ar2, issue: .every)
        var out: [ForecastPoint] = []
        for b in batches { try t.process(b, context: ctx) { out += $0.forecasts } }
        try t.finish(context: ctx) { out += $0.forecasts }
        return out.sorted { ($0.subject.text, $0.issuedAt, $0.at) < ($1.subject.text, $1.issuedAt, $1.at) }
    }

    func alerts(_ batches: [RecordBatch]) throws -> [Alert] {
        var s = AlertsTransform.Settings()
        s.model = .ar2
        let t = AlertsTransform(settings: s)
        var out: [Alert] = []
        for b in batches { try t.process(b, context: ctx) { out += $0.alerts } }
        try t.finish(context: ctx) { out += $0.alerts }
        return out.sorted { ($0.subject.text, $0.kind.rawValue, $0.start) < ($1.subject.text, $1.kind.rawValue, $1.start) }
    }

    @Test func anyOrderGivesTheOrderedForecastsAndAlerts() throws {
        let ms = series()
        let ordered = [RecordBatch(measurements: ms)]
        let expected = try forecasts(ordered), expectedAlerts = try alerts(ordered)
        #expect(expected.count > 1000 && !expectedAlerts.isEmpty)
        let scrambled = [RecordBatch(measurements: Array(ms.reversed().prefix(300))),
                         RecordBatch(measurements: Array(ms.prefix(400))), RecordBatch(measurements: Array(ms.reversed().dropFirst(300)))]
        #expect(try forecasts(scrambled) == expected)
        #expect(try alerts(scrambled) == expectedAlerts)
    }
}
