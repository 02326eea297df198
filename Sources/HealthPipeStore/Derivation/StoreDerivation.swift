import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import Yams

/// The derived-data rule for every command that writes a store: every derived row equals what
/// `healthpipe reaggregate` computes from the stored readings with the store's settings.
/// Before a run, a store's settings are adopted (a new store takes the pipeline's steps, or the
/// import defaults) or checked against the pipeline's; after it, the days the run changed are
/// brought up to date from the store (`refresh`). SQLite and PostgreSQL alike (`HealthStore`).
public enum StoreDerivation {
    /// A store's settings; nil for a new store or one without settings yet.
    public static func stored(_ store: HealthStore) throws -> DerivationSettings? {
        guard let rows = try store.storedSettingRows() else { return nil }
        return try DerivationSettings(stored: rows.map { ($0.step, $0.options) }, origin: store.name)
    }

    /// The settings of the store at `db` (a SQLite path or a postgresql:// URL).
    public static func stored(_ db: String) throws -> DerivationSettings? { try stored(HealthStores.at(db)) }

    /// The rows that store `settings`, with each step's fingerprint (building each step: option
    /// errors are thrown here, pointing into the settings file).
    public static func rows(_ settings: DerivationSettings, registry: ComponentRegistry, run: RunSettings) throws
        -> [DerivationSettings.StoredStep] {
        let prints = try settings.fingerprints(registry: registry, settings: run)
        return try settings.serialized().map { .init(step: $0.step, options: $0.options, fingerprint: prints[$0.step] ?? "") }
    }

    /// For every store sink of `graph` that stores readings: adopts the pipeline's derivation steps
    /// as the settings of a store that has none (the import defaults when it has none either),
    /// refuses steps whose settings differ from the store's, and — with `trustStream`, for
    /// pipelines built from those settings — lets the sink store the stream's daily rows for days
    /// nothing else wrote to.
    public static func prepare(_ graph: PipelineGraph, registry: ComponentRegistry, run: RunSettings, trustStream: Bool) throws {
        for (i, node) in graph.nodes.enumerated() {
            guard let sink = node.stage as? DerivedStoreSink, !sink.rewritesDerived else { continue }
            let store = sink.store
            let upstream = derivationSteps(feeding: i, in: graph)
            if let stored = try store.storedSettingRows() {
                let byStep = Dictionary(uniqueKeysWithValues: stored.map { ($0.step, $0.fingerprint) })
                for step in upstream where byStep[step.name] != step.fingerprint {
                    let have = byStep[step.name].map { "'\($0)'" } ?? "no \(step.name) step"
                    throw graph.settingsError(stage: step.stage, "'\(node.name)' keeps derived rows with the database's settings, "
                        + "which have \(have); '\(step.stage)' computes '\(step.fingerprint)'. Change the database's settings "
                        + "with `healthpipe reaggregate --db \(store.name) --config settings.yml`, or leave '\(step.stage)' out of "
                        + "'\(node.name)''s inputs")
                }
            } else {
                let settings = upstream.isEmpty ? DerivationSettings.importDefaults()
                    : DerivationSettings.adopting(upstream.map { DerivationSettings.Step(name: $0.name, options: $0.options, document: nil) })
                try store.adopt(try rows(settings, registry: registry, run: run))
            }
            guard trustStream else { continue }
            sink.trustedSteps = Set(upstream.filter { step in
                switch graph.nodes[step.index].stage {
                case let d as DailyTransform: return d.per == nil || d.per == .day
                // A fresh day's stream holds that day only: the grid reads across midnight, forecasts and
                // alerts whole histories, so a store keeping them leaves every changed day to the refresh.
                case is ResampleTransform, is PredictTransform, is AlertsTransform: return false
                default: return true
                }
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

    /// Brings the pending days of `store` (of `subjects`, nil: of anyone) up to date from the store,
    /// with its stored settings, in one transaction; nil when nothing is pending.
    public static func refresh(_ store: HealthStore, subjects: [String]? = nil, registry: ComponentRegistry, run: RunSettings,
                               quarantine: String) throws -> RunReport? {
        guard try store.hasPendingDays(subjects: subjects) else { return nil }
        let settings = try stored(store) ?? DerivationSettings.importDefaults()
        let graph = try PipelineGraph.build(spec: DerivationPipeline.draft(settings, store: store, command: "refresh of \(store.name)").spec(),
                                            registry: registry, settings: run, defaultQuarantine: quarantine)
        try store.aimRefresh(graph, scope: DerivationPipeline.scope(of: graph), subjects: subjects,
                             settings: try rows(settings, registry: registry, run: run))
        return GraphRunner(showProgress: false).run(graph)
    }

    /// The refresh of the store at `db` (a SQLite path or a postgresql:// URL).
    public static func refresh(db: String, registry: ComponentRegistry, run: RunSettings, quarantine: String) throws -> RunReport? {
        try refresh(HealthStores.at(db), registry: registry, run: run, quarantine: quarantine)
    }

    /// After a run: refreshes every store it wrote readings to (each once; PostgreSQL for the
    /// subjects the run wrote), adding each refresh's stages to `report`. A failed refresh fails the run.
    public static func refreshAfter(_ graph: PipelineGraph, into report: inout RunReport, registry: ComponentRegistry, run: RunSettings,
                                    quarantine: String) {
        var seen = Set<String>()
        for sink in graph.stages(DerivedStoreSink.self) where !sink.rewritesDerived {
            let store = sink.store
            guard seen.insert(store.name).inserted else { continue }
            do {
                if let r = try refresh(store, subjects: sink.subjectsWritten, registry: registry, run: run, quarantine: quarantine) {
                    report.merge(refresh: r, of: store.name)
                }
            } catch {
                report.outcome = .failed
                report.error = (report.error.map { $0 + "; " } ?? "") + "refresh of \(store.name): \(store.redact("\(error)"))"
            }
        }
    }

    /// Has every store sink of a `reaggregate` graph store `rows` as its settings.
    public static func storeSettings(_ rows: [DerivationSettings.StoredStep], in graph: PipelineGraph) {
        graph.stages(DerivedStoreSink.self).forEach { $0.storeSettings(rows) }
    }
}

extension RunReport {
    /// Adds a refresh run's stages (named `refresh <stage>`) and outcome to this report.
    public mutating func merge(refresh r: RunReport, of store: String) {
        for var s in r.stages {
            s.name = "refresh " + s.name
            stages.append(s)
        }
        seconds += r.seconds
        if r.outcome != .completed {
            outcome = r.outcome
            error = (error.map { $0 + "; " } ?? "") + "refresh of \(store): " + (r.error ?? r.outcome.rawValue)
        }
    }
}

extension PipelineGraph {
    /// A configuration error at a stage (its name in the pipeline document).
    func settingsError(stage: String, _ message: String) -> ConfigError {
        ConfigError(file: "pipeline", line: 0, column: 0, message: "\(stage): \(message)")
    }
}
