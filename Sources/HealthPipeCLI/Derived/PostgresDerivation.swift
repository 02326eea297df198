import HealthPipeCore
import PostgresStore
import SQLiteStore

/// The derived-data rule for a PostgreSQL store: after a run, the subjects it wrote that are still
/// pending (their stream rows could not be trusted: data stored before, a key twice, steps other than
/// the store's) are re-derived whole from the store, with its settings, in one transaction.
enum PostgresDerivation {
    /// nil when no subject of this run is pending.
    static func refresh(_ sink: PostgresSink, registry: ComponentRegistry, run: RunSettings, quarantine: String) throws -> RunReport? {
        let pending = Set(try PostgresDerivationSettings.pendingSubjects(url: sink.url))
        let subjects = sink.writtenSubjects.filter(pending.contains)
        guard !subjects.isEmpty else { return nil }
        let stored = try PostgresDerivationSettings.read(url: sink.url)
        let settings = try stored.map { try DerivationSettings(stored: $0.map { ($0.step, $0.options) }, origin: sink.url.shown) }
            ?? .importDefaults()
        let graph = try PipelineGraph.build(spec: DerivationPipeline.draft(settings, db: sink.url.conninfo, command: "refresh of \(sink.url.shown)",
                                                                           postgres: true).spec(),
                                            registry: registry, settings: run, defaultQuarantine: quarantine)
        let rows = try StoreDerivation.rows(settings, registry: registry, run: run)
        for n in graph.nodes {
            (n.stage as? PostgresSource)?.subjects = subjects
            if let s = n.stage as? PostgresSink {
                s.subjects = subjects
                s.settingsToStore = rows.map { ($0.step, $0.options, $0.fingerprint) }
            }
        }
        return GraphRunner(showProgress: false).run(graph)
    }
}
