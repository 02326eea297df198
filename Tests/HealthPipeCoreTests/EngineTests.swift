import Foundation
import HealthPipeCore
import Synchronization
import Testing

/// Small real components to exercise the engine: a counting source, a doubling transform and a collecting sink.
final class CountingSource: Source {
    let count: Int, badEvery: Int
    init(count: Int, badEvery: Int) { self.count = count; self.badEvery = badEvery }
    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var batch = RecordBatch()
        for i in 0..<count {
            if badEvery > 0, i % badEvery == 0 {
                try context.reject(RowError(file: "mem", line: Int64(i + 1), reason: "bad row \(i)", raw: "raw \(i)"))
                continue
            }
            batch.measurements.append(Measurement(subject: Symbol("s"), metric: Metrics.glucose, source: Symbol("t"),
                                                  start: Int64(i * 300), utcOffset: 0, value: Double(100 + i % 50),
                                                  unit: CanonicalUnits.glucose))
            if batch.count == 1000 { try emit(batch); batch = RecordBatch() }
        }
        try emit(batch)
    }
}

final class CollectingSink: Sink {
    static let received = Mutex<[String: Int]>([:])
    let key: String
    init(key: String) { self.key = key }
    func open(run: RunInfo, context: StageContext) throws {}
    func write(_ batch: RecordBatch, context: StageContext) throws {
        CollectingSink.received.withLock { $0[key, default: 0] += batch.count }
    }
    func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {}
}

final class PassTransform: Transform {
    func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws { try emit(batch) }
}
func testRegistry() throws -> ComponentRegistry {
    var r = ComponentRegistry()
    let sinkKey = [OptionDoc("key", "text", required: true, "where the sink counts")]
    try r.register(ComponentDescriptor(name: "counter", role: .source, family: "test", summary: "",
                                       options: [OptionDoc("count", "integer", required: true, "rows"),
                                                 OptionDoc("bad_every", "integer", default: "0", "every n-th row is bad"),
                                                 OptionDoc("key", "text", "unused")],
                                       produces: [.measurements]) { b in
        CountingSource(count: try b.required("count"), badEvery: try b.value("bad_every") ?? 0)
    })
    try r.register(ComponentDescriptor(name: "pass", role: .transform, family: "test", summary: "", options: [],
                                       accepts: .all, produces: [], passesThrough: true) { _ in PassTransform() })
    try r.register(ComponentDescriptor(name: "collect", role: .sink, family: "test", summary: "", options: sinkKey,
                                       accepts: .all) { b in CollectingSink(key: try b.required("key")) })
    try r.register(ComponentDescriptor(name: "events-only", role: .sink, family: "test", summary: "", options: sinkKey,
                                       accepts: [.events]) { b in CollectingSink(key: try b.required("key")) })
    return r
}

func build(_ yaml: String, quarantine: String = "/tmp/unused.ndjson") throws -> PipelineGraph {
    let doc = try ConfigDocument(file: "pipe.yml", text: yaml, environment: [:])
    return try PipelineGraph.build(spec: try PipelineSpec(document: doc), registry: try testRegistry(),
                                   settings: RunSettings(), defaultQuarantine: quarantine)
}

/// 1000 counter rows, some bad (`options`: how often, and the error policy), into a sink that counts under `key`.
func badRowsGraph(_ options: String, key: String, quarantine: String = "/tmp/unused.ndjson") throws -> PipelineGraph {
    try build("""
    sources:
      a: { type: counter, count: 1000, \(options) }
    sinks:
      s: { type: collect, inputs: [a], key: \(key) }
    """, quarantine: quarantine)
}

@Suite(.serialized) struct EngineTests {
    @Test func fanInAndFanOutDeliverEveryRecord() throws {
        let graph = try build("""
        sources:
          a: { type: counter, count: 25000 }
          b: { type: counter, count: 10000 }
        sinks:
          one: { type: collect, inputs: [a, b], key: fan1 }
          two: { type: collect, inputs: [a], key: fan2 }
        """)
        let report = GraphRunner().run(graph)
        #expect(report.outcome == .completed && report.exitCode == 0)
        let got = CollectingSink.received.withLock { $0 }
        #expect(got["fan1"] == 35000)
        #expect(got["fan2"] == 25000)
        #expect(report.stages.first { $0.name == "one" }?.recordsIn == 35000)
    }

    @Test func quarantinePolicyWritesDeadLettersAndExits3() throws {
        let q = FileManager.default.temporaryDirectory.appendingPathComponent("q-\(UUID().uuidString).ndjson").path
        let graph = try badRowsGraph("bad_every: 100", key: "q1", quarantine: q)
        let report = GraphRunner().run(graph)
        #expect(report.quarantined == 10 && report.exitCode == 3)
        #expect(CollectingSink.received.withLock { $0["q1"] } == 990)
        let lines = try String(contentsOfFile: q, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines[0].contains("\"line\":1") && lines[0].contains("\"reason\":\"bad row 0\"") && lines[0].contains("\"raw\":\"raw 0\""))
    }

    @Test func failPolicyStopsTheRun() throws {
        let graph = try badRowsGraph("bad_every: 500, on_error: fail", key: "f1")
        let report = GraphRunner().run(graph)
        #expect(report.outcome == .failed && report.exitCode == 1)
        #expect(report.error?.contains("bad row 0") == true)
    }

    @Test func skipPolicyCountsOnly() throws {
        let graph = try badRowsGraph("bad_every: 250, on_error: skip", key: "k1")
        let report = GraphRunner().run(graph)
        #expect(report.skipped == 4 && report.exitCode == 0)
    }

    @Test func reportJSONHasStagesAndOutcome() throws {
        let report = GraphRunner().run(try build("""
        sources:
          a: { type: counter, count: 10 }
        sinks:
          s: { type: collect, inputs: [a], key: j1 }
        """))
        let obj = try JSONSerialization.jsonObject(with: Data(report.json())) as! [String: Any]
        #expect(obj["outcome"] as? String == "completed")
        #expect((obj["stages"] as? [[String: Any]])?.count == 2)
    }
}

@Suite struct GraphErrorTests {
    func errors(_ yaml: String) -> [ConfigError] {
        do { _ = try build(yaml); return [] } catch let e as ConfigErrors { return e.errors } catch let e as ConfigError { return [e] } catch { return [] }
    }

    @Test func unknownTypeSuggestsNearest() {
        let e = errors("sources:\n  a: { type: countr, count: 1 }\nsinks:\n  s: { type: collect, inputs: [a], key: x }\n")
        #expect(e.count == 1 && e[0].line == 2 && e[0].column == 14 && e[0].suggestion == "counter")
    }

    @Test func unknownInputIsLocated() {
        let e = errors("sources:\n  cgm: { type: counter, count: 1 }\nsinks:\n  s: { type: collect, inputs: [cmg], key: x }\n")
        #expect(e.count == 1 && e[0].line == 4 && e[0].suggestion == "cgm" && e[0].message.contains("unknown input"))
    }

    /// Issue 36: `inputs: [cgm, cgm]` wrote every record twice; it is refused, located at the repeat.
    @Test func anInputListedTwiceIsRefused() {
        let sink = errors("sources:\n  cgm: { type: counter, count: 1 }\nsinks:\n  s: { type: collect, inputs: [cgm, cgm], key: x }\n")
        #expect(sink.count == 1 && sink[0].line == 4 && sink[0].column == 37)
        #expect(sink.first?.message == "'cgm' is listed twice in the inputs of sink 's': it would receive every record twice; list each input once")
        let transform = errors("sources:\n  a: { type: counter, count: 1 }\ntransforms:\n  t: { type: pass, inputs: [a, a] }\n"
                               + "sinks:\n  s: { type: collect, inputs: [t], key: x }\n")
        #expect(transform.count == 1 && transform[0].message.contains("listed twice in the inputs of transform 't'"))
    }

    @Test func cycleIsReported() {
        let e = errors("""
        sources:
          a: { type: counter, count: 1 }
        transforms:
          t1: { type: pass, inputs: [a, t2] }
          t2: { type: pass, inputs: [t1] }
        sinks:
          s: { type: collect, inputs: [t2], key: x }
        """)
        #expect(e.count == 1 && e[0].message.contains("cycle") && e[0].message.contains("t1 → t2 → t1"))
    }

    @Test func wrongSectionIsExplained() {
        let e = errors("sources:\n  a: { type: counter, count: 1 }\ntransforms:\n  t: { type: collect, inputs: [a] }\nsinks:\n  s: { type: collect, inputs: [a], key: x }\n")
        #expect(e.contains { $0.message.contains("is a sink, not a transform") && $0.line == 4 })
    }

    @Test func passThroughCarriesKindsDownstream() throws {
        let g = try build("sources:\n  a: { type: counter, count: 1 }\ntransforms:\n  t: { type: pass, inputs: [a] }\nsinks:\n  s: { type: collect, inputs: [t], key: pt }\n")
        #expect(g.nodes.first { $0.name == "t" }?.emits == [.measurements])
    }

    @Test func typeMismatchOnEdge() {
        let e = errors("sources:\n  a: { type: counter, count: 1 }\nsinks:\n  s: { type: events-only, inputs: [a], key: x }\n")
        #expect(e.count == 1 && e[0].line == 4 && e[0].message.contains("takes events but 'a' emits measurements"))
    }

    @Test func unknownOptionAndTopLevelKey() {
        let e = errors("sourcs:\n  a: { type: counter, count: 1 }\nsinks:\n  s: { type: collect, inputs: [a], key: x, colour: red }\n")
        #expect(e.contains { $0.line == 1 && $0.suggestion == "sources" })
    }

    @Test func unknownComponentOption() {
        let e = errors("sources:\n  a: { type: counter, count: 1, cuont: 2 }\nsinks:\n  s: { type: collect, inputs: [a], key: x }\n")
        #expect(e.count == 1 && e[0].line == 2 && e[0].column == 33 && e[0].suggestion == "count")
    }

    @Test func noSinkAndDuplicateNames() {
        #expect(errors("sources:\n  a: { type: counter, count: 1 }\n").contains { $0.message.contains("no sinks") })
    }
}
