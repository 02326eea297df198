import HealthPipeCore
import Testing
import SQLiteStore

@Suite struct ComponentTests {
    func build(_ yaml: String, base: String) throws -> any Stage {
        let doc = try ConfigDocument(file: "pipeline.yml", text: yaml)
        let builder = ComponentBuilder(stageName: "db", document: doc, node: doc.root,
                                       settings: RunSettings(baseDirectory: base))
        return try sqliteSinkComponent.build(builder)
    }

    @Test func describesItself() {
        let c = sqliteSinkComponent
        #expect(c.name == "sqlite")
        #expect(c.role == .sink)
        #expect(c.family == "SQLiteStore")
        #expect(c.accepts.isSuperset(of: [.measurements, .events, .dailySummaries, .metricSets, .forecasts, .alerts,
                                          .motionSessions]))
        #expect(c.produces == [])
        #expect(c.options.map(\.name) == ["path", "batch_rows", "replace_derived", "restore_deleted"])
        #expect(c.options.allSatisfy { !$0.doc.isEmpty })
        #expect(!c.summary.isEmpty)
    }

    @Test func buildsFromOptionsResolvingThePath() throws {
        let stage = try build("type: sqlite\ninputs: [daily]\npath: out/health.sqlite\nbatch_rows: 500\n", base: "/data/proj")
        let sink = try #require(stage as? SQLiteSink)
        #expect(sink.path == "/data/proj/out/health.sqlite")
        #expect(sink.batchRows == 500)
        let defaults = try #require(try build("path: /tmp/x.sqlite\n", base: "/") as? SQLiteSink)
        #expect(defaults.batchRows == SQLiteSink.defaultBatchRows)
    }

    @Test func rejectsBadOptions() throws {
        #expect(throws: (any Error).self) { try build("path: a.sqlite\nbatch_row: 5\n", base: "/") }
        #expect(throws: (any Error).self) { try build("batch_rows: 5\n", base: "/") }
        #expect(throws: (any Error).self) { try build("path: a.sqlite\nbatch_rows: 0\n", base: "/") }
    }
}
