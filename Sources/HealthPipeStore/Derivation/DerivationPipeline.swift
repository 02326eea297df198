import HealthPipeAnalytics
import HealthPipeCore
import Yams

/// The re-aggregation pipeline of a store, built as a value from its derivation settings:
/// the store's source → resample / classify / daily / reports / predict / alerts → its sink in
/// `replace_derived` mode. `healthpipe reaggregate` runs it over everything; the refresh after an
/// import runs it over the pending days only. One pipeline for both, so an import and a
/// re-aggregation compute alike.
public enum DerivationPipeline {
    /// A store that keeps no health reports has nothing for the `reports` step to read: it is left out.
    public static func draft(_ settings: DerivationSettings, store: HealthStore, command: String) -> PipelineDraft {
        var p = PipelineDraft(command: command)
        let stages = store.stages
        let location = (stages.locationKey, Node(stages.location))
        p.add(.source, "db", type: stages.source, options: [location])
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
        if store.keepsHealthReports { add("reports", as: "reportdays", from: "db") }
        add("predict", as: "forecast", from: "db")
        add("alerts", as: "alarms", from: "db")
        p.add(.sink, "out", type: stages.sink, inputs: outputs, options: [location, ("replace_derived", PipelineDraft.bool(true))])
        if let shown = stages.shownLocation {
            p.flags["db"] = shown
            p.flags["out"] = shown
        }
        return p
    }

    /// What a refresh must read around each pending day, from the steps as built.
    public static func scope(of graph: PipelineGraph) -> RefreshScope {
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
