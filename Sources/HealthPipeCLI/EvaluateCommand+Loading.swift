import ArgumentParser
import Foundation
import HealthPipeAnalytics
import HealthPipeCore

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
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        let source: String
        if let db {
            source = "{ type: sqlite-source, path: \(q(ComponentBuilder.resolve(db, base: cwd))) }"
        } else {
            let path = ComponentBuilder.resolve(input!, base: cwd)
            var type = format
            if type == nil {
                do { type = try registry.identify(FileSniff.read(path: path)).name } catch {
                    printError("\(input!): \((error as? InputError)?.reason ?? "\(error)") (see `healthpipe plugins`)")
                    throw ExitCode(1)
                }
            }
            source = "{ type: \(q(type!)), path: \(q(path)) }"
        }
        let yaml = "sources:\n  in: \(source)\nsinks:\n  collect: { type: evaluation-collector, inputs: [in] }\n"
        let document: ConfigDocument
        do { document = try ConfigDocument(file: "<evaluate pipeline>", text: yaml) } catch { throw configFailure(error) }
        let settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? "default", baseDirectory: cwd,
                                   pluginPaths: shared.pluginPaths)
        let quarantine = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-evaluate-\(getpid()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: quarantine) }
        do {
            try RunExecution.execute(document: document, registry: registry, settings: settings,
                                     defaultQuarantine: quarantine, reportPath: nil, quiet: true)
        } catch let e as ExitCode where e.rawValue == 3 {
            // Rows were quarantined; the valid ones are still evaluated.
        }
        return Array(box.collector.series.values)
    }
}
