import ArgumentParser
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import Yams

/// Reads the readings and treatments to evaluate through an ordinary pipeline (a file source or
/// the `sqlite-source`) into an in-process collecting sink.
enum SeriesLoader {
    final class CollectorBox: @unchecked Sendable {
        let collector = SeriesCollector()
    }

    static func load(db: String?, input: String?, format: String?, shared: SharedOptions) throws -> [SubjectSeries] {
        var registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let box = CollectorBox()
        try registry.register(ComponentDescriptor(
            name: "evaluation-collector", role: .sink, family: "HealthPipeCLI",
            summary: "collects readings for healthpipe evaluate", options: [], accepts: [.measurements, .events],
            build: { _ in box.collector }))
        let cwd = FileManager.default.currentDirectoryPath
        var pipeline = PipelineDraft(command: "healthpipe evaluate")
        if let db {
            pipeline.add(.source, "in", type: "sqlite-source", options: [("path", Node(ComponentBuilder.resolve(db, base: cwd)))])
            pipeline.flags["in"] = "--db \(db)"
        } else {
            let path = ComponentBuilder.resolve(input!, base: cwd)
            switch InputDetection.type(of: path, shown: input!, forced: format, registry: registry) {
            case .found(let type): pipeline.add(.source, "in", type: type, options: [("path", Node(path))])
            case .unreadable(let message): printError(message); throw ExitCode(1)
            case .unknownType(let message): throw configFailure(ConfigError(file: "healthpipe evaluate", line: 0, column: 0, message: message))
            }
            pipeline.flags["in"] = "--input \(input!)"
        }
        pipeline.add(.sink, "collect", type: "evaluation-collector", inputs: ["in"])
        let settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore, baseDirectory: cwd,
                                   pluginPaths: shared.pluginPaths)
        let quarantine = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-evaluate-\(getpid()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: quarantine) }
        do {
            try RunExecution.execute(spec: pipeline.spec(), registry: registry, settings: settings,
                                     defaultQuarantine: quarantine, reportPath: nil, quiet: true)
        } catch let e as ExitCode where e.rawValue == 3 {
            // Rows were quarantined; the valid ones are still evaluated.
        }
        return Array(box.collector.series.values)
    }
}
