import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeStore
import SQLiteStore
import Testing
import Yams

/// What a store sink may take from the stream it is fed (`StoreDerivation.prepare`): the steps that
/// derive a day from that day's rows alone — classify, daily by day. The grid (across midnight),
/// forecasts, alerts and period sets (whole histories) are never trusted, so a store whose settings
/// keep them leaves every day an import changes to the refresh, whichever pipeline feeds it.
@Suite struct StreamTrustTests {
    @Test func onlyStepsThatDeriveADayFromItsOwnRowsAreTrusted() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("t.sqlite").path
        var p = PipelineDraft(command: "test")
        p.add(.source, "in", type: "dexcom-clarity", options: [("path", Node(DerivedDataRuleTests.clarity))])
        p.add(.transform, "grid", type: "resample", inputs: ["in"])
        p.add(.transform, "bands", type: "classify", inputs: ["in"])
        p.add(.transform, "days", type: "daily", inputs: ["bands"])
        p.add(.transform, "weeks", type: "daily", inputs: ["bands"], options: [("per", Node("period"))])
        p.add(.transform, "forecast", type: "predict", inputs: ["in"])
        p.add(.transform, "alarms", type: "alerts", inputs: ["in"])
        p.add(.sink, "db", type: "sqlite", inputs: ["grid", "days", "forecast", "alarms"], options: [("path", Node(db))])
        p.add(.sink, "periods", type: "sqlite", inputs: ["weeks"], options: [("path", Node(dir.appendingPathComponent("p.sqlite").path))])
        let registry = try BuiltinPlugins.registry(), run = RunSettings(timezone: "UTC")
        let graph = try PipelineGraph.build(spec: p.spec(), registry: registry, settings: run,
                                            defaultQuarantine: dir.appendingPathComponent("q.ndjson").path)
        try StoreDerivation.prepare(graph, registry: registry, run: run, trustStream: true)
        let sinks = graph.nodes.compactMap { $0.stage as? SQLiteSink }
        #expect(sinks.map(\.trustedSteps) == [["classify", "daily"], ["classify"]])
    }
}
