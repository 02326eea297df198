import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import SQLiteStore
import Synchronization
import Yams

/// Where `metrics` reads from — an export file (its source) or a database (the sqlite-source) —
/// and the one pipeline both feed: → daily → a collecting sink that keeps the metric sets and daily
/// summaries, nothing else stored.
enum MetricsPipeline {
    final class Collected: Sendable {
        let sets = Mutex<[MetricSet]>([])
        let days = Mutex<[DailySummary]>([])
    }

    final class CollectingSink: Sink {
        let box: Collected
        init(box: Collected) { self.box = box }
        func open(run: RunInfo, context: StageContext) throws {}
        func write(_ batch: RecordBatch, context: StageContext) throws {
            if !batch.metricSets.isEmpty { box.sets.withLock { $0 += batch.metricSets } }
            if !batch.dailySummaries.isEmpty { box.days.withLock { $0 += batch.dailySummaries } }
        }
        func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {}
    }

    enum Input {
        case file(path: String, shown: String, format: String?)
        case database(path: String, shown: String, subject: String?)
    }

    static let command = "healthpipe metrics"

    static func compute(_ input: Input, period: MetricPeriod, metric: String, shared: SharedOptions) throws -> [MetricSet] {
        var registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let box = Collected()
        do {
            try registry.register(ComponentDescriptor(name: "metrics-collector", role: .sink, family: "healthpipe metrics",
                                                      summary: "", options: [], accepts: [.metricSets, .dailySummaries]) { _ in CollectingSink(box: box) })
        } catch { throw configFailure(error) }
        var p = PipelineDraft(command: command)
        switch input {
        case let .file(path, shown, format):
            switch InputDetection.type(of: path, shown: shown, forced: format, registry: registry) {
            case .found(let type): p.add(.source, "in", type: type, onError: .skip, options: [("path", Node(path))])
            case .unreadable(let message): printError(message); throw ExitCode(1)
            case .unknownType(let message): throw configFailure(ConfigError(file: command, line: 0, column: 0, message: message))
            }
            p.flags["in"] = "--input \(shown)"
        case let .database(path, shown, subject):
            var options: [(key: String, value: Node)] = [("path", Node(path)), ("metrics", PipelineDraft.list([Node(metric)]))]
            if let subject { options.append(("subjects", PipelineDraft.list([Node(subject)]))) }
            p.add(.source, "in", type: "sqlite-source", options: options)
            p.flags["in"] = "--db \(shown)"
        }
        var daily: [(key: String, value: Node)] = [("metrics", PipelineDraft.list([Node(metric)]))]
        switch period {
        case .day: daily.append(("per", Node("day")))
        case .period(let from, let to):
            daily.append(("per", Node("period")))
            if let from { daily.append(("from", Node(CivilDate.isoDate(fromDays: from)))) }
            if let to { daily.append(("to", Node(CivilDate.isoDate(fromDays: to)))) }
        }
        p.add(.transform, "daily", type: "daily", inputs: ["in"], options: daily)
        p.add(.sink, "collect", type: "metrics-collector", inputs: ["daily"])
        let graph: PipelineGraph
        do {
            graph = try PipelineGraph.build(spec: p.spec(), registry: registry,
                                            settings: RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore,
                                                                  baseDirectory: FileManager.default.currentDirectoryPath,
                                                                  pluginPaths: shared.pluginPaths),
                                            defaultQuarantine: "/dev/null")
        } catch { throw configFailure(error) }
        let report = GraphRunner(showProgress: false).run(graph)
        if report.exitCode != 0 || report.skipped > 0 { printError(report.summary()) }
        if report.exitCode != 0 && report.exitCode != 3 { throw ExitCode(report.exitCode) }
        let days = box.days.withLock { $0 }.filter { $0.metric.text == metric }
        return MetricsFromDays.complete(box.sets.withLock { $0 }, days: days, period: period)
    }
}
