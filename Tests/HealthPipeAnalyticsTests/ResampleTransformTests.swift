import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// The streaming `resample` transform: the same grid as the reference, in bounded per-series state.
@Suite struct ResampleTransformTests {
    let ctx = StageContext.forTesting("resample", name: "r", policy: .quarantine)

    func measurements(_ s: MetricsReferenceData.Series, subject: String, offset: Int32 = 0) -> [HealthPipeCore.Measurement] {
        s.times.indices.map {
            HealthPipeCore.Measurement(subject: Symbol(subject), metric: Metrics.glucose, source: Symbol("cgm"),
                                       start: s.times[$0] - Int64(offset), utcOffset: offset, value: s.values[$0],
                                       unit: CanonicalUnits.glucose)
        }
    }

    func run(_ t: ResampleTransform, _ batches: [[HealthPipeCore.Measurement]]) throws -> [HealthPipeCore.Measurement] {
        var out: [HealthPipeCore.Measurement] = []
        for b in batches { try t.process(RecordBatch(measurements: b), context: ctx) { out += $0.measurements } }
        try t.finish(context: ctx) { out += $0.measurements }
        return out
    }

    @Test func streamedBatchesGiveTheReferenceGrid() throws {
        let s = try MetricsReferenceData.readings(file: "irregular.csv", patient: "child#001")
        let grid = DayByDayGrid(times: s.times, values: s.values)
        // Small batches, a two-hour zone offset, and a few neighbours swapped within the reorder window.
        var ms = measurements(s, subject: "child#001", offset: 7200)
        for i in stride(from: 100, to: ms.count - 1, by: 500) { ms.swapAt(i, i + 1) }
        let batches = stride(from: 0, to: ms.count, by: 700).map { Array(ms[$0..<min($0 + 700, ms.count)]) }
        let out = try run(ResampleTransform(), batches)
        let expected = grid.values.enumerated().filter { !$0.element.isNaN }
        #expect(out.count == expected.count)
        #expect(out.allSatisfy { $0.flags == .interpolated && $0.source.text == "resampled" && $0.utcOffset == 7200 })
        var worst = 0.0
        for (o, e) in zip(out, expected) {
            #expect(o.start + 7200 == grid.origin + Int64(e.offset + 1) * 300)
            worst = max(worst, abs(o.value - e.element))
        }
        #expect(worst == 0)
    }

    @Test func subjectsStaySeparateAndGapsStayEmpty() throws {
        let a = MetricsReferenceData.Series(times: [0, 600, 1200, 1200 + 46 * 60], values: [100, 110, 120, 200])
        let b = MetricsReferenceData.Series(times: [300, 900], values: [50, 60])
        let out = try run(ResampleTransform(), [measurements(a, subject: "a") + measurements(b, subject: "b")])
        let aOut = out.filter { $0.subject.text == "a" }.map { ($0.start, $0.value) }
        // 00:05 … 00:20 interpolated; nothing inside the 46-minute gap; the reading at 01:06 is not on the grid.
        #expect(aOut.map(\.0) == [300, 600, 900, 1200])
        #expect(aOut.map(\.1) == [105, 110, 115, 120])
        #expect(out.filter { $0.subject.text == "b" }.map(\.value) == [50, 55, 60])
    }

    @Test func aGapOfExactly45MinutesIsBridged() throws {
        let a = MetricsReferenceData.Series(times: [0, 45 * 60], values: [100, 145])
        let out = try run(ResampleTransform(), [measurements(a, subject: "a")])
        #expect(out.map(\.value) == stride(from: 105.0, through: 145, by: 5).map { $0 })
    }

    @Test func readingsOutOfOrderGiveTheSameGridAsInOrder() throws {
        // Scans listed after the historic readings (LibreView), newest first (CareLink): all one grid.
        let a = MetricsReferenceData.Series(times: [0, 300, 3600, 3900, 600, 4200], values: [1, 2, 3, 4, 99, 5])
        let shuffled = try run(ResampleTransform(reorderWindowSeconds: 600), [measurements(a, subject: "a")])
        var order = a.times.indices.sorted { a.times[$0] < a.times[$1] }
        let sorted = MetricsReferenceData.Series(times: order.map { a.times[$0] }, values: order.map { a.values[$0] })
        #expect(try run(ResampleTransform(reorderWindowSeconds: 600), [measurements(sorted, subject: "a")]).map(\.value)
                == shuffled.map(\.value))
        order.reverse()
        let reversed = MetricsReferenceData.Series(times: order.map { a.times[$0] }, values: order.map { a.values[$0] })
        #expect(try run(ResampleTransform(reorderWindowSeconds: 600), [measurements(reversed, subject: "a")]).map(\.value)
                == shuffled.map(\.value))
        #expect(shuffled.contains { abs($0.value - 99) < 1e-9 })
    }

    @Test func localTimeGoingBackBeyondTheWindowIsCountedNotResampled() throws {
        let t = ResampleTransform(reorderWindowSeconds: 600)
        // Flying west: the offset falls by two hours, so local time goes back beyond the 10-minute window.
        // UTC 0, 300, 600 at +02:00 are local 02:00 … 02:10; UTC 900 and 1200 at +00:00 are local 00:15, 00:20.
        let before = measurements(MetricsReferenceData.Series(times: [7200, 7500, 7800], values: [1, 2, 3]), subject: "a", offset: 7200)
        let after = measurements(MetricsReferenceData.Series(times: [900, 1200], values: [4, 5]), subject: "a")
        let out = try run(t, [after + before])
        #expect(!out.contains { $0.value == 4 || $0.value == 5 })
        #expect(ctx.warnings.contains { $0.contains("2 readings") })
    }
}
