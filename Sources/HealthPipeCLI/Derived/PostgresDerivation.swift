import HealthPipeCore
import PostgresStore
import SQLiteStore

/// The derived-data rule for a PostgreSQL store, as for SQLite: after a run, the pending days of the
/// subjects it wrote (their stream rows could not be trusted: data stored before, a key twice, steps
/// other than the store's) are re-derived from the store, with its settings, in one transaction —
/// reading those days (and the margin the steps read around them, or whole subjects when the steps
/// read whole histories) and replacing only their derived rows.
enum PostgresDerivation {
    /// nil when no subject of this run is pending.
    static func refresh(_ sink: PostgresSink, registry: ComponentRegistry, run: RunSettings, quarantine: String) throws -> RunReport? {
        var pending = try PostgresPendingDays.read(url: sink.url, subjects: sink.writtenSubjects)
        guard !pending.isEmpty else { return nil }
        let stored = try PostgresDerivationSettings.read(url: sink.url)
        let settings = try stored.map { try DerivationSettings(stored: $0.map { ($0.step, $0.options) }, origin: sink.url.shown) }
            ?? .importDefaults()
        let graph = try PipelineGraph.build(spec: DerivationPipeline.draft(settings, db: sink.url.conninfo, command: "refresh of \(sink.url.shown)",
                                                                           postgres: true).spec(),
                                            registry: registry, settings: run, defaultQuarantine: quarantine)
        let scope = DerivationPipeline.scope(of: graph)
        pending.marginDays = scope.marginDays
        pending.wholeSubjects = scope.wholeSubjects
        let rows = try StoreDerivation.rows(settings, registry: registry, run: run)
        for n in graph.nodes {
            (n.stage as? PostgresSource)?.pending = pending
            if let s = n.stage as? PostgresSink {
                s.pending = pending
                s.settingsToStore = rows.map { ($0.step, $0.options, $0.fingerprint) }
            }
        }
        return GraphRunner(showProgress: false).run(graph)
    }
}
