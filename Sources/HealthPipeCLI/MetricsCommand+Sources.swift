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
            guard FileManager.default.fileExists(atPath: path) else { printError("\(shown): no such database"); throw ExitCode(1) }
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

/// Completes the sets with what the daily summaries hold: a day's hypo/hyper flags and event totals
/// (a day's metric set carries only the CGM metrics), and for a metric that is not glucose — which
/// has no CGM metric set — count, mean, SD, min and max per day or period.
enum MetricsFromDays {
    struct Key: Hashable { var subject: Symbol, metric: Symbol, day: Int64 }

    static func complete(_ sets: [MetricSet], days: [DailySummary], period: MetricPeriod) -> [MetricSet] {
        var byDay: [Key: DailySummary] = [:]
        for d in days { byDay[Key(subject: d.subject, metric: d.metric, day: d.day)] = d }
        var out = sets.map { set -> MetricSet in
            guard set.firstDay == set.lastDay, let d = byDay[Key(subject: set.subject, metric: set.metric, day: set.firstDay)] else { return set }
            var s = set
            s.values += [NamedValue("hypo_days", d.hypo ? 1 : 0), NamedValue("hyper_days", d.hyper ? 1 : 0),
                         NamedValue("carbs_g", d.carbsGrams), NamedValue("insulin_u", d.insulinUnits),
                         NamedValue("exercise_min", d.exerciseMinutes), NamedValue("illness_days", d.illness ? 1 : 0),
                         NamedValue("stress_days", d.stress ? 1 : 0)]
            return s
        }
        let covered = Set(sets.map { "\($0.subject.id)/\($0.metric.id)" })
        let plain = days.filter { !covered.contains("\($0.subject.id)/\($0.metric.id)") && $0.count > 0 }
        switch period {
        case .day:
            out += plain.map { basic(subject: $0.subject, metric: $0.metric, unit: $0.unit, first: $0.day, last: $0.day, [$0]) }
        case .period(let from, let to):
            let inside = plain.filter { d in (from.map { d.day >= $0 } ?? true) && (to.map { d.day <= $0 } ?? true) }
            for (_, group) in Dictionary(grouping: inside, by: { "\($0.subject.id)/\($0.metric.id)" }) {
                let sorted = group.sorted { $0.day < $1.day }
                out.append(basic(subject: sorted[0].subject, metric: sorted[0].metric, unit: sorted[0].unit,
                                 first: from ?? sorted[0].day, last: to ?? sorted[sorted.count - 1].day, sorted))
            }
        }
        return out
    }

    /// Count, mean, SD (n − 1), min and max over whole days (Chan's pairwise update of mean and M2).
    static func basic(subject: Symbol, metric: Symbol, unit: Symbol, first: Int64, last: Int64, _ days: [DailySummary]) -> MetricSet {
        var n = 0.0, mean = 0.0, m2 = 0.0, lo = Double.infinity, hi = -Double.infinity
        for d in days {
            let k = Double(d.count), dm2 = (d.sd ?? 0) * (d.sd ?? 0) * (k - 1)
            let delta = d.mean - mean
            mean += delta * k / (n + k)
            m2 += dm2 + delta * delta * n * k / (n + k)
            n += k
            lo = min(lo, d.min)
            hi = max(hi, d.max)
        }
        var values = [NamedValue("n_readings", n), NamedValue("mean", mean)]
        if n > 1 { values.append(NamedValue("sd", (m2 / (n - 1)).squareRoot())) }
        values += [NamedValue("min", lo), NamedValue("max", hi)]
        return MetricSet(subject: subject, metric: metric, unit: unit, firstDay: first, lastDay: last, values: values)
    }
}
