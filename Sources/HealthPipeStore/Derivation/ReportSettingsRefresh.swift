import HealthPipeCore

extension StoreDerivation {
    /// Stores `settings` — which differ from the stored ones in the `reports` step only — and
    /// recomputes what that step derives (daily summary reports, reminder and threshold alerts) from
    /// every subject's stored reports, in one transaction. The derived-data rule still holds: the
    /// step reads reports only and no other step reads its settings or output, so the store ends as
    /// a clean `reaggregate` with `settings` leaves it, without re-reading a single reading.
    /// Pending days stay pending (their refresh then follows `settings`). A store that keeps no
    /// health reports has no report-derived rows: it is refused.
    public static func replaceReportSettings(_ store: HealthStore, with settings: DerivationSettings, registry: ComponentRegistry,
                                             run: RunSettings, quarantine: String) throws -> RunReport {
        guard store.keepsHealthReports else {
            throw ConfigError(file: store.name, line: 0, column: 0, message: "this store keeps no health reports, so no report settings")
        }
        let rows = try rows(settings, registry: registry, run: run)
        let reportsOnly = DerivationSettings(steps: settings["reports"].map { [$0] } ?? [])
        let draft = DerivationPipeline.draft(reportsOnly, store: store, command: "report settings of \(store.name)")
        let graph = try PipelineGraph.build(spec: draft.spec(), registry: registry, settings: run, defaultQuarantine: quarantine)
        try store.aimRefresh(graph, scope: .reports, subjects: nil, settings: rows)
        return GraphRunner(showProgress: false).run(graph)
    }
}
