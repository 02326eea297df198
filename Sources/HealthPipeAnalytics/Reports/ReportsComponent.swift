import HealthPipeCore

/// `reports`' options: the reminder and the thresholds (each a mapping of its own).
enum ReportsOptions {
    struct ThresholdOptions: Decodable {
        var metric: String
        var above: Double?
        var below: Double?
        var unit: String?
        // Read as numbers and checked by their NumberRule, so `days: 1e30` is refused naming the field.
        var days: Double?
        var min_importance: Double?
    }

    static func settings(_ b: ComponentBuilder) throws -> ReportAlertSettings {
        var s = ReportAlertSettings()
        let thresholds = try b.value("thresholds", as: [ThresholdOptions].self)
        if let reminder = try b.value("reminder", as: String.self), reminder != "false" {
            guard let m = ReportAlertSettings.minute(of: reminder) else {
                throw b.error("reminder '\(reminder)' is not a time of day such as 20:00", option: "reminder")
            }
            s.reminderMinute = m
        }
        var seen = Set<String>()
        for t in thresholds ?? [] {
            guard let metric = HealthValues.metricName(t.metric) else {
                throw b.error("threshold metric '\(t.metric)' is not a health value name", option: "thresholds")
            }
            guard (t.above == nil) != (t.below == nil), let limit = t.above ?? t.below else {
                throw b.error("threshold on \(metric): give either 'above' or 'below'", option: "thresholds")
            }
            guard seen.insert(metric + (t.above != nil ? ">" : "<")).inserted else {
                throw b.error("two '\(t.above != nil ? "above" : "below")' thresholds on \(metric): keep one", option: "thresholds")
            }
            let canonical: (value: Double, unit: String)
            switch HealthValues.canonical(metric: metric, value: limit, unit: t.unit ?? "") {
            case .success(let c): canonical = (c.value, c.unit)
            case .failure(let p): throw b.error("threshold on \(metric): \(p)", option: "thresholds")
            }
            for (field, value, rule) in [("days", t.days, NumberRule.thresholdDays), ("min_importance", t.min_importance, .importance)] {
                if let value, let p = rule.problem(value, name: field) { throw b.error("threshold on \(metric): \(p)", option: "thresholds") }
            }
            let days = t.days.map { Int($0) } ?? 7
            let importance = t.min_importance.map { Int($0) } ?? 4
            s.thresholds.append(.init(metric: Symbol(metric), above: t.above != nil, limit: canonical.value,
                                      unit: Symbol(canonical.unit), days: days, minImportance: importance))
        }
        return s
    }
}

public let reportsComponent = ComponentDescriptor(
    name: "reports", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Health reports (seed 004): the daily summary report — per subject, local day and value, the average of the \
        day's reports with n, min, max and the highest importance (table report_days) — and report alerts: a reminder \
        when a day has no report by a set time, and thresholds on the average of a value's important readings (importance \
        ≥ min_importance) over a period, above or below a limit. Consecutive crossings are one alert. See docs/reports.md.
        """,
    options: [
        OptionDoc("reminder", "HH:MM | false", default: "none", "a report is expected every day by this local time"),
        OptionDoc("thresholds", "list of {metric, above | below, unit, days, min_importance}", default: "[]",
                  "values whose average over `days` (default 7) of readings with importance ≥ min_importance (default 4) "
                  + "must stay at or below `above` / at or above `below` (in `unit`, default the metric's)"),
    ],
    accepts: [.reports], produces: [.reportDays, .alerts],
    build: { b in ReportsTransform(settings: try ReportsOptions.settings(b)) })

extension ReportsTransform: DerivationStep {
    public var fingerprint: String { Self.fingerprint(settings) }

    /// The settings as compared and stored; the default one is what schema v9 stores for databases
    /// that had settings before the step existed.
    public static func fingerprint(_ s: ReportAlertSettings) -> String {
        "reports reminder=\(s.reminderText ?? "none") thresholds=[\(s.thresholds.map(\.text).joined(separator: ","))]"
    }
}
