import ArgumentParser
import Foundation
import HealthPipeCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a pipeline file: any graph of sources → transforms → sinks.")

    @Argument(help: "The pipeline YAML file.") var pipeline: String
    @OptionGroup var shared: SharedOptions
    @OptionGroup var sharding: ShardOption
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @Flag(help: "Print the summary only when something went wrong.") var quiet = false

    func run() throws {
        let registry: ComponentRegistry
        let document: ConfigDocument
        var spec: PipelineSpec
        let shard = try sharding.parsed()
        let base = URL(fileURLWithPath: pipeline).deletingLastPathComponent().path
        var settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore, baseDirectory: base,
                                   pluginPaths: shared.pluginPaths)
        do {
            registry = try shared.registry()
            document = try ConfigDocument.load(path: pipeline)
            spec = try PipelineSpec(document: document)
            settings = PipelinePersonZones.settings(settings, spec: spec)
            if let shard {
                // The whole pipeline is checked first: a mistake in another shard's source is still a mistake.
                _ = try PipelineGraph.build(spec: spec, registry: registry, settings: settings, defaultQuarantine: "quarantine.ndjson")
                let part = try spec.sharded(shard, subject: shared.subject)
                let sources = spec.stages.filter { $0.role == .source }.count
                ShardOption.note(shard, kept: part.kept.count, of: sources, what: "sources")
                if part.kept.isEmpty { return }
                spec = part.spec
            }
        } catch { throw configFailure(error) }
        try RunExecution.execute(spec: spec, registry: registry, settings: settings,
                                 defaultQuarantine: URL(fileURLWithPath: base).appendingPathComponent("quarantine.ndjson").path,
                                 reportPath: report, quiet: quiet)
    }
}

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check a pipeline file without running it (exit 2 on errors).")

    @Argument(help: "The pipeline YAML file.") var pipeline: String
    @OptionGroup var shared: SharedOptions

    func run() throws {
        do {
            let registry = try shared.registry()
            let document = try ConfigDocument.load(path: pipeline)
            let base = URL(fileURLWithPath: pipeline).deletingLastPathComponent().path
            let spec = try PipelineSpec(document: document)
            let settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore, baseDirectory: base)
            let graph = try PipelineGraph.build(spec: spec, registry: registry,
                                                settings: PipelinePersonZones.settings(settings, spec: spec),
                                                defaultQuarantine: URL(fileURLWithPath: base).appendingPathComponent("quarantine.ndjson").path)
            // The run's own output rule: a sink over a source, a database or another sink is an error here too.
            if let clash = graph.fileClash() { throw FileClash(message: clash) }
            print("\(pipeline): ok — \(graph.nodes.count) stages")
            for n in graph.nodes {
                let inputs = n.inputs.map { graph.nodes[$0].name }
                print("  \(n.descriptor.role.rawValue) \(n.name) (\(n.descriptor.name))" + (inputs.isEmpty ? "" : " ← \(inputs.joined(separator: ", "))")
                      + (n.emits.isEmpty ? "" : " → \(n.emits)"))
            }
        } catch { throw configFailure(error) }
    }
}
