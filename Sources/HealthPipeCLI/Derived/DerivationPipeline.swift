import HealthPipeAnalytics
import HealthPipeCore
import PostgresStore
import SQLiteStore
import Yams

/// The re-aggregation pipeline of a database, built as a value from its derivation settings:
/// sqlite-source → resample / classify / daily / predict / alerts → sqlite in `replace_derived` mode.
/// `healthpipe reaggregate` runs it over everything; the refresh after an import runs it over the
/// pending days only. One pipeline for both, so an import and a re-aggregation compute alike.
enum DerivationPipeline {
    /// `db` is a SQLite path or a PostgreSQL URL or connection string (`postgres-source` → `postgres`;
    /// a PostgreSQL store keeps no health reports, so the `reports` step has nothing to read there and
    /// is left out).
    static func draft(_ settings: DerivationSettings, db: String, command: String, postgres: Bool? = nil) -> PipelineDraft {
        var p = PipelineDraft(command: command)
        let postgres = postgres ?? PostgresURL.isURL(db)
        let location = postgres ? ("url", Node(db)) : ("path", Node(db))
        p.add(.source, "db", type: postgres ? "postgres-source" : "sqlite-source", options: [location])
        var outputs: [String] = []
        var readings = "db"
        func add(_ step: String, as name: String, from input: String) {
            guard let s = settings[step] else { return }
            p.add(.transform, name, type: step, inputs: [input], options: s.optionPairs, from: s.document)
            outputs.append(name)
        }
        add("resample", as: "grid", from: "db")
        if settings["classify"] != nil {
            add("classify", as: "bands", from: "db")
            readings = "bands"
        }
        add("daily", as: "days", from: readings)
        if !postgres { add("reports", as: "reportdays", from: "db") }
        add("predict", as: "forecast", from: "db")
        add("alerts", as: "alarms", from: "db")
        p.add(.sink, "out", type: postgres ? "postgres" : "sqlite", inputs: outputs,
              options: [location, ("replace_derived", PipelineDraft.bool(true))])
        if postgres { p.flags["db"] = PostgresURL(db).shown; p.flags["out"] = PostgresURL(db).shown }
        return p
    }

    /// What a refresh must read around each pending day, from the steps as built.
    static func scope(of graph: PipelineGraph) -> RefreshScope {
        var margin: Int64 = 0
        var whole = false
        for n in graph.nodes {
            switch n.stage {
            case let r as ResampleTransform: margin = max(margin, 1 + (r.maxGap + 86_399) / 86_400)
            case let d as DailyTransform: if case .period? = d.per { whole = true }
            case is PredictTransform, is AlertsTransform: whole = true
            default: break
            }
        }
        return RefreshScope(pendingOnly: true, marginDays: margin, wholeSubjects: whole)
    }
}
