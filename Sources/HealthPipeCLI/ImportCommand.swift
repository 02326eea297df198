import ArgumentParser
import Foundation
import HealthPipeCore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import export files into SQLite with the default pipeline (classify + daily summary).",
        discussion: """
        Each file's format is detected from its content, not its name. Re-importing the same files adds nothing.
        Bad rows are quarantined to <db>.quarantine.ndjson (file, line, reason, raw text); every valid row lands.
        Use --print-pipeline to see the pipeline this runs, as a starting point for `healthpipe run`.
        """)

    @Argument(help: "Export files to import.") var files: [String]
    @Option(help: "The SQLite database to create or update.") var db: String
    @OptionGroup var shared: SharedOptions
    @Option(help: "Band preset for classification: seeds, consensus or range.") var preset: String = "seeds"
    @Option(help: "Force a source type instead of detecting it (see `healthpipe plugins`).") var format: String?
    @Option(name: .customLong("on-error"), help: "What to do with bad rows: fail, skip or quarantine.") var onError: String = "quarantine"
    @Option(help: "Dead-letter file for bad rows (default: <db>.quarantine.ndjson).") var quarantine: String?
    @Option(help: "Also write every record as NDJSON to this file.") var ndjson: String?
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @Flag(name: .customLong("print-pipeline"), help: "Print the generated pipeline YAML and exit.") var printPipeline = false

    func run() throws {
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let cwd = FileManager.default.currentDirectoryPath
        var sources: [(name: String, type: String, path: String)] = []
        var unreadable = 0
        for (i, file) in files.enumerated() {
            let path = ComponentBuilder.resolve(file, base: cwd)
            let type: String
            if let forced = format {
                guard let c = registry.component(named: forced), c.role == .source else {
                    let names = registry.all(role: .source).map(\.name)
                    throw configFailure(RegistryError(message: "unknown source type '\(forced)'"
                        + (NameSuggester.nearest(to: forced, in: names).map { " (did you mean '\($0)'?)" } ?? "")))
                }
                type = forced
            } else {
                do {
                    type = try registry.identify(FileSniff.read(path: path)).name
                } catch {
                    printError("\(file): \((error as? InputError)?.reason ?? "\(error)")")
                    unreadable += 1
                    continue
                }
            }
            sources.append(("file\(i + 1)", type, path))
        }
        guard !sources.isEmpty else { throw ExitCode(1) }

        let dbPath = ComponentBuilder.resolve(db, base: cwd)
        let yaml = DefaultPipeline.yaml(sources: sources, db: dbPath, preset: preset, onError: onError,
                                        ndjson: ndjson.map { ComponentBuilder.resolve($0, base: cwd) })
        if printPipeline { print(yaml, terminator: ""); return }
        let document: ConfigDocument
        do { document = try ConfigDocument(file: "<import pipeline>", text: yaml) } catch { throw configFailure(error) }
        let defaultQuarantine = quarantine.map { ComponentBuilder.resolve($0, base: cwd) }
            ?? (dbPath.hasSuffix(".sqlite") ? String(dbPath.dropLast(7)) : dbPath) + ".quarantine.ndjson"
        let settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? "default", baseDirectory: cwd,
                                   pluginPaths: shared.pluginPaths)
        do {
            try RunExecution.execute(document: document, registry: registry, settings: settings,
                                     defaultQuarantine: defaultQuarantine, reportPath: report)
        } catch let e as ExitCode where unreadable > 0 && e.rawValue != 2 {
            throw ExitCode(1)
        }
        if unreadable > 0 { throw ExitCode(1) }
    }
}

/// The built-in import pipeline, written as the YAML `healthpipe run` takes, so the two paths are one.
enum DefaultPipeline {
    static func yaml(sources: [(name: String, type: String, path: String)], db: String, preset: String, onError: String,
                     ndjson: String?) -> String {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        var y = "sources:\n"
        for s in sources { y += "  \(s.name): { type: \(q(s.type)), path: \(q(s.path)), on_error: \(q(onError)) }\n" }
        let names = sources.map(\.name).joined(separator: ", ")
        y += "transforms:\n"
        y += "  bands: { type: classify, inputs: [\(names)], preset: \(q(preset)) }\n"
        y += "  daily: { type: daily, inputs: [bands] }\n"
        y += "sinks:\n"
        y += "  db: { type: sqlite, inputs: [bands, daily], path: \(q(db)) }\n"
        if let ndjson { y += "  feed: { type: ndjson, inputs: [bands, daily], path: \(q(ndjson)) }\n" }
        return y
    }
}
