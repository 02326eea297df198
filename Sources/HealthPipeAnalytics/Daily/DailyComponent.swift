import HealthPipeCore

public let dailyComponent = ComponentDescriptor(
    name: "daily", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Per subject, metric and local day: count, min, max, mean, SD (n−1), for a metric that adds up (steps, \
        distance, energy, floors, exercise and sleep minutes) the day's total with each minute counted once across \
        sources (source_priority), percentage of readings in each band \
        (from classify), hypo/hyper flags, carbs and insulin totals, exercise minutes, illness/stress flags. Days \
        with events but no readings get a row with metric 'activity'. Illness/stress episodes flag every day they \
        span (markers without an end last episode_length; open episodes every day from their start). For glucose it also emits metric sets per day \
        or period: mean, SD, CV, quartiles, GMI, eA1c, % <54/54–69/70–180/181–250/>250, LBGI, HBGI, J-index, GRI, \
        ADRR, MAGE (moving average), CONGA, MODD, active %, AGP percentiles by time of day (periods only) — \
        iglu-compatible definitions, see docs/analytics.md.
        """,
    options: [
        OptionDoc("hypo_below", "number", default: "4.0 mmol/L (72 mg/dL)", "a glucose reading below this marks a hypo day"),
        OptionDoc("hyper_above", "number", default: "10.0 mmol/L (180 mg/dL)", "a glucose reading above this marks a hyper day"),
        OptionDoc("unit", "mg/dL | mmol/L", default: "mmol/L", "unit of hypo_below and hyper_above"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "metrics that get hypo/hyper flags and metric sets"),
        OptionDoc("per", "day | period | none", default: "day", "metric sets per local day, for one period, or none"),
        OptionDoc("from", "YYYY-MM-DD", default: "the first reading's day", "first local day of the period (per: period)"),
        OptionDoc("to", "YYYY-MM-DD", default: "the last reading's day", "last local day of the period (per: period)"),
        OptionDoc("grid_step_minutes", "integer dividing 1440", default: "5", "grid step for CONGA, MODD and AGP (MAGE always uses 5)"),
        OptionDoc("max_gap_minutes", "integer", default: "45", "longest gap the grid bridges by interpolation"),
        OptionDoc("conga_hours", "list of integers", default: "[]", "extra CONGA(n) lags besides conga1 and conga24_iglu_default"),
        OptionDoc("episode_length", "duration (0 … 7d)", default: "24h",
                  "how long an illness/stress marker without an end lasts (a Clarity Health row, a CareLink event marker)"),
        OptionDoc("source_priority", "list of source names", default: "[] (a watch, then an iPhone, then other sources by name)",
                  "sources counted first when several recorded the same minute of a total; a name matches a source that contains it"),
    ],
    accepts: [.measurements, .events], produces: [.dailySummaries, .metricSets],
    build: { b in
        let unit = try b.value("unit", as: GlucoseUnit.self) ?? .mmol
        let low = unit.toMgdl(try b.value("hypo_below") ?? (unit == .mmol ? 4.0 : 72))
        let high = unit.toMgdl(try b.value("hyper_above") ?? (unit == .mmol ? 10.0 : 180))
        guard low < high else { throw b.error("hypo_below must be lower than hyper_above", option: "hypo_below") }
        var grid = GlucoseMetrics.Options()
        grid.gridStepSeconds = Int64(try b.minutesDividingDay(b.value("grid_step_minutes"), option: "grid_step_minutes", default: 5)) * 60
        grid.maxGapSeconds = Int64(try b.wholeNumber("max_gap_minutes", .gapMinutes) ?? 45) * 60
        grid.congaHours = try b.value("conga_hours") ?? []
        guard grid.congaHours.allSatisfy({ $0 > 0 }) else { throw b.error("conga_hours must be positive", option: "conga_hours") }
        var marker = EpisodeSpan.defaultMarkerSeconds
        if let text = try b.value("episode_length", as: String.self) {
            guard let seconds = EpisodeLengthText.seconds(text), seconds <= EpisodeSpan.markerMaxDays * 86_400 else {
                throw b.error("episode_length '\(text)' must be a duration from 0 to 7d (e.g. 24h, 90m, 2d)", option: "episode_length")
            }
            marker = seconds
        }
        let metrics = try b.value("metrics") ?? ["glucose"]
        let preferred: [String] = try b.value("source_priority") ?? []
        guard preferred.allSatisfy({ $0.contains { !$0.isWhitespace } }) else {
            throw b.error("source_priority names must not be empty", option: "source_priority")
        }
        return DailyTransform(hypoBelow: low, hyperAbove: high, glucoseMetrics: Set(metrics.map { Symbol($0) }),
                              per: try MetricPeriodOption.read(b), options: grid, markerSeconds: marker,
                              sourcePriority: SourcePriority(preferred: preferred))
    })

/// Everything HealthPipeAnalytics registers.
public enum AnalyticsPlugin {
    public static var components: [ComponentDescriptor] {
        [classifyComponent, dailyComponent, resampleComponent, predictComponent, alertsComponent, reportsComponent]
            + SessionsPlugin.components
    }
}

/// `24h`, `90m`, `2d`, `0` → seconds; nil when it is not a duration.
enum EpisodeLengthText {
    static func seconds(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, factor) in [("min", 60), ("m", 60), ("h", 3600), ("d", 86_400), ("s", 1)] as [(String, Int64)] where t.hasSuffix(suffix) {
            return Int64(t.dropLast(suffix.count)).flatMap { $0 >= 0 ? $0 * factor : nil }
        }
        return Int64(t).flatMap { $0 == 0 ? 0 : nil }
    }
}
