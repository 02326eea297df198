import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import PostgresStore
import SQLiteStore
import Yams

/// The derived-data rule for the commands that write a database: every derived row equals what
/// `healthpipe reaggregate` computes from the stored readings with the database's settings.
/// Before a run, a database's settings are adopted (a new database takes the pipeline's steps, or
/// the import defaults) or checked against the pipeline's; after it, the days the run changed are
/// brought up to date from the store (`refresh`).
enum StoreDerivation {
    /// A database's stored settings; nil for a new database or one without settings yet.
    static func stored(_ db: String) throws -> DerivationSettings? {
        if PostgresURL.isURL(db) {
            let url = PostgresURL(db)
            guard let rows = try PostgresDerivationSettings.read(url: url) else { return nil }
            return try DerivationSettings(stored: rows.map { ($0.step, $0.options) }, origin: url.shown)
        }
        guard let rows = try DerivationSettingsTable.read(path: db) else { return nil }
        return try DerivationSettings(stored: rows.map { ($0.step, $0.options) }, origin: db)
    }

    /// The rows that store `settings`, with each step's fingerprint (building each step: option
    /// errors are thrown here, pointing into the settings file).
    static func rows(_ settings: DerivationSettings, registry: ComponentRegistry, run: RunSettings) throws
        -> [DerivationSettingsTable.Row] {
        let prints = try settings.fingerprints(registry: registry, settings: run)
        return try settings.serialized().map { .init(step: $0.step, options: $0.options, fingerprint: prints[$0.step] ?? "") }
    }

    /// For every sqlite or postgres sink of `graph` that stores readings: adopts the pipeline's derivation steps
    /// as the settings of a database that has none (the import defaults when it has none either),
    /// refuses steps whose settings differ from the database's, and — with `trustStream`, for
    /// pipelines the CLI built from those settings — lets the sink store the stream's daily rows for
    /// days nothing else wrote to.
    static func prepare(_ graph: PipelineGraph, registry: ComponentRegistry, run: RunSettings, trustStream: Bool) throws {
        for (i, node) in graph.nodes.enumerated() {
            guard let sink = node.stage as? DerivedStoreSink, !sink.rewritesDerived else { continue }
            let upstream = derivationSteps(feeding: i, in: graph)
            let stored = try sink.storedSettings()
            if stored == nil {
                let settings = upstream.isEmpty ? DerivationSettings.importDefaults()
                    : DerivationSettings.adopting(upstream.map { DerivationSettings.Step(name: $0.name, options: $0.options, document: nil) })
                try sink.adopt(try rows(settings, registry: registry, run: run))
            } else if let stored {
                let byStep = Dictionary(uniqueKeysWithValues: stored.map { ($0.step, $0.fingerprint) })
                for step in upstream where byStep[step.name] != step.fingerprint {
                    let have = byStep[step.name].map { "'\($0)'" } ?? "no \(step.name) step"
                    throw graph.settingsError(stage: step.stage, "'\(node.name)' keeps derived rows with the database's settings, "
                        + "which have \(have); '\(step.stage)' computes '\(step.fingerprint)'. Change the database's settings "
                        + "with `healthpipe reaggregate --db \(sink.storeName) --config settings.yml`, or leave '\(step.stage)' out of "
                        + "'\(node.name)''s inputs")
                }
            }
            guard trustStream else { continue }
            sink.trustedSteps = Set(upstream.filter { step in
                guard let d = graph.nodes[step.index].stage as? DailyTransform else { return true }
                return d.per == nil || d.per == .day
            }.map(\.name))
        }
    }

    struct UpstreamStep {
        var name: String, stage: String, index: Int, fingerprint: String
        var options: Node
    }

    /// The derivation steps whose output reaches node `i` (directly or through other stages).
    static func derivationSteps(feeding i: Int, in graph: PipelineGraph) -> [UpstreamStep] {
        var seen = Set<Int>(), stack = graph.nodes[i].inputs, out: [UpstreamStep] = []
        while let j = stack.popLast() {
            guard seen.insert(j).inserted else { continue }
            let n = graph.nodes[j]
            if let step = n.stage as? DerivationStep {
                out.append(UpstreamStep(name: n.descriptor.name, stage: n.name, index: j, fingerprint: step.fingerprint,
                                        options: n.options))
            }
            stack += n.inputs
        }
        return out.sorted { $0.index < $1.index }
    }

    /// Brings the pending days of `db` up to date from the store, with its stored settings; nil
    /// when nothing is pending.
    static func refresh(db: String, registry: ComponentRegistry, run: RunSettings, quarantine: String) throws -> RunReport? {
        guard try PendingDaysQuery.any(path: db) else { return nil }
        let settings = try stored(db) ?? DerivationSettings.importDefaults()
        let graph = try PipelineGraph.build(spec: DerivationPipeline.draft(settings, db: db, command: "refresh of \(db)").spec(),
                                            registry: registry, settings: run, defaultQuarantine: quarantine)
        let scope = DerivationPipeline.scope(of: graph)
        for n in graph.nodes {
            (n.stage as? SQLiteSource)?.scope = scope
            if let sink = n.stage as? SQLiteSink {
                sink.refreshScope = scope
                sink.settingsToStore = try rows(settings, registry: registry, run: run)
            }
        }
        return GraphRunner(showProgress: false).run(graph)
    }
}

extension PipelineGraph {
    /// A configuration error at a stage (its name in the pipeline document).
    func settingsError(stage: String, _ message: String) -> ConfigError {
        ConfigError(file: "pipeline", line: 0, column: 0, message: "\(stage): \(message)")
    }
}
