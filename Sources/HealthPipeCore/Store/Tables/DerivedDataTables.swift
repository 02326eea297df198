/// What the transforms derive from the readings (replaced by `reaggregate` and the refresh), and the
/// bookkeeping that keeps them equal to the readings: pending days and the settings they use.
extension StoreTables {
    public static let dailySummaries = TableDescription("daily_summaries", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText), // YYYY-MM-DD, local
        .required("metric", .sortedText),
        .required("unit", .text),
        .required("n", .int32),
        .optional("min", .double),
        .optional("max", .double),
        .optional("mean", .double),
        .optional("sd", .double),
        .required("hypo", .int32),
        .required("hyper", .int32),
        .required("carbs_g", .double),
        .required("insulin_u", .double),
        .required("exercise_min", .double),
        .required("illness", .int32),
        .required("stress", .int32),
        // A metric that adds up: the day's total, each minute once across sources, and what each
        // source counted as a JSON object (SQLite v12, PostgreSQL v6).
        .optional("total", .double),
        .optional("total_sources", .text),
    ], primaryKey: ["subject", "day", "metric"])

    public static let dailyBands = TableDescription("daily_bands", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText),
        .required("metric", .sortedText),
        .required("band", .sortedText),
        .required("percent", .double),
    ], primaryKey: ["subject", "day", "metric", "band"])

    /// Long format, so a new metric needs no new column; a single day is a period whose ends are equal.
    public static let glucoseMetrics = TableDescription("glucose_metrics", columns: [
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("period_start", .sortedText), // YYYY-MM-DD, local, inclusive
        .required("period_end", .sortedText),
        .required("name", .sortedText), // mean, sd, cv_pct, tir_70_180_pct, …
        .required("value", .double),
        .required("unit", .text),
    ], primaryKey: ["subject", "metric", "period_start", "period_end", "name"], withoutRowID: true)

    public static let glucoseAGP = TableDescription("glucose_agp", columns: [
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("period_start", .sortedText),
        .required("period_end", .sortedText),
        .required("minute_of_day", .int32), // 0 = the grid's 24:00 column, 5 = 00:05, …
        .required("n", .int32),
        .required("p05", .double),
        .required("p25", .double),
        .required("p50", .double),
        .required("p75", .double),
        .required("p95", .double),
    ], primaryKey: ["subject", "metric", "period_start", "period_end", "minute_of_day"], withoutRowID: true)

    public static let forecasts = TableDescription("forecasts", columns: [
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("model", .sortedText), // ar2 | ridge | ridge-treatments
        .required("issued_at", .int64),
        .required("at", .int64),
        .required("utc_offset", .int32),
        .required("value", .double),
    ], primaryKey: ["subject", "metric", "model", "issued_at", "at"], withoutRowID: true)

    public static let alerts = TableDescription("alerts", columns: [
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("kind", .sortedText), // predicted_low | predicted_high | low | high
        .required("start", .int64),
        .required("end", .int64),
        .required("utc_offset", .int32),
        .required("duration_min", .double),
        .required("value", .double),
        .required("threshold", .double),
        .required("model", .text, default: "''"),
    ], primaryKey: ["subject", "metric", "kind", "start"], withoutRowID: true)

    /// The daily summary of health reports.
    public static let reportDays = TableDescription("report_days", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText),
        .required("metric", .sortedText),
        .required("unit", .text),
        .required("reports", .int32), // reports made that day
        .required("n", .int32), // of which hold this value
        .required("mean", .double),
        .required("min", .double),
        .required("max", .double),
        .required("max_importance", .int32),
    ], primaryKey: ["subject", "day", "metric"], in: [.sqlite], withoutRowID: true)

    /// (subject, local day) whose derived rows wait for a refresh; in PostgreSQL `day` may be `*`, the whole subject.
    public static let derivedPending = TableDescription("derived_pending", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText),
    ], primaryKey: ["subject", "day"], withoutRowID: true)

    /// The settings derived rows are computed with, one row per step.
    public static let derivationSettings = TableDescription("derivation_settings", columns: [
        .optional("step", .text), // resample | classify | daily | …; the key (declared so by version 7)
        .required("options", .text), // the step's options as a YAML flow mapping
        .required("fingerprint", .text), // the effective settings, every default filled in
    ], primaryKey: ["step"])
}
