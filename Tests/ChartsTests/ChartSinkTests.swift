import Charts
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

@Suite struct ChartSinkTests {
    func context() -> StageContext {
        StageContext.forTesting("chart", name: "charts")
    }

    func tempDir() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-charts-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func stamped(_ r: [Measurement]) -> [Measurement] {
        r.map { var m = $0; m.provenance = Provenance(file: Symbol("cgm.csv"), line: 1); return m }
    }

    @Test func streamedDayFilesEqualTheViewsOfTheWholeStore() throws {
        let (raw, events) = try Fixture.simglucose("adult#002")
        let readings = stamped(raw)
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        var settings = ViewSettings()
        settings.today = first + 20
        let dir = tempDir()
        let sink = ChartSink(folder: dir, views: [.day, .agp], settings: settings)
        let ctx = context()
        // In chunks, as a pipeline delivers them: events with the readings of their time.
        for chunk in stride(from: 0, to: readings.count, by: 1000) {
            let part = Array(readings[chunk..<min(chunk + 1000, readings.count)])
            let evs = events.filter { $0.start >= part.first!.start && $0.start <= part.last!.start }
            try sink.write(RecordBatch(measurements: part, events: evs), context: ctx)
        }
        // Days were written while the stream went on, not only at the end.
        let beforeClose = sink.written.count
        #expect(beforeClose >= 8)
        try sink.close(outcome: .completed, report: RunReport(), context: ctx)
        #expect(sink.written.count == 14 + 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/t/day").sorted()
        #expect(files.count == 14)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/t").sorted() == ["agp", "day"])
        #expect(!files.contains { $0.hasPrefix(".") }, "a temporary file was left behind")

        let loader = ChartLoader(source: MemorySource(readings: readings, events: events), subject: "t", settings: settings)
        for day in [first, first + 6, first + 13] {
            let fromStore = try loader.dayView(day).json().jsonObject
            let streamed = try Data(contentsOf: URL(fileURLWithPath: dir + "/t/day/\(CivilDate.isoDate(fromDays: day)).json"))
            let json = try JSONSerialization.jsonObject(with: streamed) as! [String: Any]
            for key in fromStore.keys where key != "navigation" {
                #expect(NSDictionary(dictionary: fromStore).object(forKey: key) as? NSObject == (json[key] as? NSObject), "\(key) of day \(day - first)")
            }
        }
        let agp = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/t/agp/"
            + CivilDate.isoDate(fromDays: first) + "_" + CivilDate.isoDate(fromDays: first + 13) + ".json"))) as! [String: Any]
        let expected = try loader.agp(firstDay: first, lastDay: first + 13).json().jsonObject
        #expect(NSDictionary(dictionary: agp).isEqual(to: expected))
    }

    @Test func aRecordForADayAlreadyWrittenIsCountedNotLost() throws {
        let (raw, _) = try Fixture.simglucose("adult#003")
        let readings = stamped(raw)
        let sink = ChartSink(folder: tempDir(), views: [.day], settings: ViewSettings())
        let ctx = context()
        try sink.write(RecordBatch(measurements: readings), context: ctx)
        try sink.write(RecordBatch(measurements: [readings[10]]), context: ctx)
        try sink.close(outcome: .completed, report: RunReport(), context: ctx)
        #expect(ctx.warnings.contains { $0.hasPrefix("1 record(s) of 't' arrived after their day's chart was written") })
    }

    @Test func subjectNamesBecomeSafeFolderNames() throws {
        let dir = tempDir()
        let sink = ChartSink(folder: dir, views: [.day], settings: ViewSettings())
        var r = Fixture.reading(86_400 * 100, 120)
        r.subject = Symbol("../../etc/x y")
        try sink.write(RecordBatch(measurements: [r]), context: context())
        try sink.close(outcome: .completed, report: RunReport(), context: context())
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [".._.._etc_x_y"])
    }
}
