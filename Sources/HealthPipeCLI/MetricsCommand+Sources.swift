import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import SQLiteStore
import Synchronization

/// `metrics --input`: the file's source → daily pipeline, run in memory; a collecting sink keeps
/// the metric sets (a few per day), nothing else is stored.
enum MetricsFromFile {
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

    static func compute(path input: String, period: MetricPeriod, metric: String, format: String?,
                        shared: SharedOptions) throws -> [MetricSet] {
        var registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let box = Collected()
        do {
            try registry.register(ComponentDescriptor(name: "metrics-collector", role: .sink, family: "healthpipe metrics",
                                                      summary: "", options: [], accepts: [.metricSets, .dailySummaries]) { _ in CollectingSink(box: box) })
        } catch { throw configFailure(error) }
        let cwd = FileManager.default.currentDirectoryPath
        let path = ComponentBuilder.resolve(input, base: cwd)
        let type: String
        if let format {
            guard registry.component(named: format)?.role == .source else { throw configFailure(RegistryError(message: "unknown source type '\(format)'")) }
            type = format
        } else {
            do { type = try registry.identify(FileSniff.read(path: path)).name } catch {
                printError("\(input): \((error as? InputError)?.reason ?? "\(error)") (use --format to force one)")
                throw ExitCode(1)
            }
        }
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        var daily = "  daily: { type: daily, inputs: [file], metrics: [\(q(metric))]"
        switch period {
        case .day: daily += ", per: day"
        case .period(let from, let to):
            daily += ", per: period"
            if let from { daily += ", from: \(CivilDate.isoDate(fromDays: from))" }
            if let to { daily += ", to: \(CivilDate.isoDate(fromDays: to))" }
        }
        let yaml = """
            sources:
              file: { type: \(q(type)), path: \(q(path)), on_error: skip }
            transforms:
            \(daily) }
            sinks:
              collect: { type: metrics-collector, inputs: [daily] }

            """
        let document: ConfigDocument
        let graph: PipelineGraph
        do {
            document = try ConfigDocument(file: "<metrics pipeline>", text: yaml)
            graph = try PipelineGraph.build(spec: try PipelineSpec(document: document), registry: registry,
                                            settings: RunSettings(timezone: shared.timezone, subject: shared.subject ?? "default",
                                                                  baseDirectory: cwd, pluginPaths: shared.pluginPaths),
                                            defaultQuarantine: "/dev/null")
        } catch { throw configFailure(error) }
        let report = GraphRunner(showProgress: false).run(graph)
        let skipped = report.stages.reduce(Int64(0)) { $0 + $1.skipped }
        if report.exitCode != 0 || skipped > 0 { printError(report.summary()) }
        if report.exitCode != 0 && report.exitCode != 3 { throw ExitCode(report.exitCode) }
        return DayTotals.add(to: box.sets.withLock { $0 }, from: box.days.withLock { $0 })
    }
}

/// `metrics --db`: the stored readings (and events, for the day totals) of each subject, read back
/// in time order and fed through the same daily transform.
enum MetricsFromDatabase {
    static func compute(path: String, period: MetricPeriod, metric: String, subject: String?) throws -> [MetricSet] {
        let reader: MeasurementReader
        do { reader = try MeasurementReader(path: ComponentBuilder.resolve(path, base: FileManager.default.currentDirectoryPath)) } catch {
            printError("\(path): \(error)")
            throw ExitCode(1)
        }
        let context = StageContext(name: "daily", type: "daily", policy: .skip, quarantine: QuarantineWriter(path: "/dev/null"),
                                   progress: ProgressMeter())
        var sets: [MetricSet] = [], days: [DailySummary] = []
        let subjects = try reader.subjects(metric: metric).filter { subject == nil || $0 == subject }
        for s in subjects {
            // One subject at a time: the transform holds only that subject's open days or period.
            let daily = DailyTransform(hypoBelow: GlucoseUnit.mmol.toMgdl(4.0), hyperAbove: GlucoseUnit.mmol.toMgdl(10.0),
                                       glucoseMetrics: [Symbol(metric)], per: period)
            try reader.events(subject: s) { try daily.process(RecordBatch(events: $0), context: context) { _ in } }
            try reader.read(subject: s, metric: metric) { try daily.process(RecordBatch(measurements: $0), context: context) { _ in } }
            try daily.finish(context: context) { sets += $0.metricSets; days += $0.dailySummaries }
        }
        for w in context.warnings { printError("warning: \(w)") }
        return DayTotals.add(to: sets, from: days)
    }
}

/// Day sets carry only glucose metrics (the transform emits them before the day's events are
/// complete); the command adds that day's flags and totals from its daily summary, under the same
/// names as a period's.
enum DayTotals {
    struct Key: Hashable { var subject: Symbol, metric: Symbol, day: Int64 }

    static func add(to sets: [MetricSet], from days: [DailySummary]) -> [MetricSet] {
        var byDay: [Key: DailySummary] = [:]
        for d in days { byDay[Key(subject: d.subject, metric: d.metric, day: d.day)] = d }
        return sets.map { set in
            guard set.firstDay == set.lastDay, set["carbs_g"] == nil,
                  let d = byDay[Key(subject: set.subject, metric: set.metric, day: set.firstDay)] else { return set }
            var s = set
            s.values += [NamedValue("hypo_days", d.hypo ? 1 : 0), NamedValue("hyper_days", d.hyper ? 1 : 0),
                         NamedValue("carbs_g", d.carbsGrams), NamedValue("insulin_u", d.insulinUnits),
                         NamedValue("exercise_min", d.exerciseMinutes), NamedValue("illness_days", d.illness ? 1 : 0),
                         NamedValue("stress_days", d.stress ? 1 : 0)]
            return s
        }
    }
}
