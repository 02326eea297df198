/// A table the sink writes through a staging table: rows are COPYed into `hp_stage_<name>` (a
/// temporary table like the target, plus `hp_order`: see `StagedTable`), then moved with
/// INSERT … ON CONFLICT once per transaction. An update happens only when a compared column really
/// differs, so re-importing identical data rewrites nothing and counts 0 changes (as in SQLite).
struct PGTable: Sendable {
    var name: String
    var columns: [String]
    var key: [String]
    var update: [String]
    var changedWhen: [String]
    /// Columns the upsert's changed rows are counted by (subject, import_id): per-subject freshness
    /// and the imports log's new_rows.
    var countBy: [String] = []
    /// With `countBy`: the local day a row counts on (NULL: the whole subject), counted by too, so
    /// the days whose rows changed go to `derived_pending`.
    var dayOf: String?
    /// The table has a `bigserial` id besides its natural key (routes, ECGs), which rows under it name.
    var hasID = false

    var stage: String { "hp_stage_\(name)" }
    var copyColumns: [String] { columns + ["hp_order"] }

    static func q(_ names: [String]) -> String { names.map(PGConnection.quote).joined(separator: ", ") }

    /// Like the table (a table with a serial `id` gets its columns only: a staged row takes no id), plus `hp_order`.
    func createStage() -> String {
        let like = hasID ? "AS SELECT \(Self.q(columns)) FROM \(name) WITH NO DATA" : "(LIKE \(name) INCLUDING DEFAULTS)"
        return "CREATE TEMP TABLE IF NOT EXISTS \(stage) \(like); "
            + "ALTER TABLE \(stage) ADD COLUMN IF NOT EXISTS hp_order bigint NOT NULL DEFAULT 0"
    }

    /// Moves staged rows into the table: all of them, those of one generation (`hp_order = generation`,
    /// each key at most once), or — `lastOfEachKey` — the last staged row of each key (ON CONFLICT cannot
    /// touch a row twice in one statement). With `countBy`, returns one row per group: its columns,
    /// rows inserted, rows inserted or changed.
    ///
    /// `skipStored` leaves out, before the upsert, rows stored already with the same compared columns (a
    /// re-import): ON CONFLICT would lock each of them — a heap write and WAL per row — only to change
    /// nothing. The check is one primary-key probe per staged row, kept so by `OFFSET 0` (a correlated
    /// subquery the planner does not turn into a join: as a hash anti-join it would read the whole
    /// table for every batch, a cost that grows with the store instead of the batch).
    func upsert(generation: Int? = nil, lastOfEachKey: Bool = false, skipStored: Bool = false) -> String {
        let cols = Self.q(columns)
        var conditions: [String] = []
        if let generation { conditions.append("s.hp_order = \(generation)") }
        if skipStored {
            let sameKey = key.map { "t.\(PGConnection.quote($0)) = s.\(PGConnection.quote($0))" }.joined(separator: " AND ")
            conditions.append("NOT EXISTS (SELECT 1 FROM \(name) t WHERE \(sameKey) AND ("
                + changedWhen.map { "t.\(PGConnection.quote($0))" }.joined(separator: ", ") + ") IS NOT DISTINCT FROM ("
                + changedWhen.map { "s.\(PGConnection.quote($0))" }.joined(separator: ", ") + ") OFFSET 0)")
        }
        let from = (lastOfEachKey
            ? "(SELECT DISTINCT ON (\(Self.q(key))) \(cols) FROM \(stage) ORDER BY \(Self.q(key)), hp_order DESC) AS s"
            : "\(stage) AS s") + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        let conflict = update.isEmpty ? "DO NOTHING"
            : "DO UPDATE SET " + update.map { "\(PGConnection.quote($0)) = excluded.\(PGConnection.quote($0))" }.joined(separator: ", ")
                + " WHERE (" + changedWhen.map { "\(name).\(PGConnection.quote($0))" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
                + changedWhen.map { "excluded.\(PGConnection.quote($0))" }.joined(separator: ", ") + ")"
        let insert = "INSERT INTO \(name) (\(cols)) SELECT \(cols) FROM \(from) ON CONFLICT (\(Self.q(key))) \(conflict)"
        guard !countBy.isEmpty else { return insert }
        let by = Self.q(countBy), day = dayOf.map { ", \($0) AS hp_day" } ?? ", NULL::bigint AS hp_day"
        return "WITH w AS (\(insert) RETURNING \(by)\(day), (xmax = 0) AS fresh) "
            + "SELECT \(by), count(*) FILTER (WHERE fresh), count(*), hp_day FROM w GROUP BY \(by), hp_day"
    }

    static let measurements = PGTable(
        name: "measurements",
        columns: ["subject", "metric", "source", "start", "end", "utc_offset", "value", "unit", "flags", "band", "import_id", "line",
                  "metadata", "device_id"],
        key: ["subject", "metric", "source", "start", "end"],
        update: ["value", "unit", "flags", "band", "utc_offset", "import_id", "line", "metadata", "device_id"],
        changedWhen: ["value", "unit", "flags", "band", "utc_offset"], countBy: ["subject", "import_id"],
        dayOf: PGLocalDay.expression)

    static let events = PGTable(
        name: "events",
        columns: ["subject", "kind", "subtype", "source", "start", "end", "utc_offset", "carbs_g", "protein_g", "fat_g", "insulin_u",
                  "intensity", "note", "flags", "import_id", "line", "amount", "metadata", "device_id"],
        key: ["subject", "kind", "subtype", "source", "start", "amount"],
        update: ["end", "utc_offset", "carbs_g", "protein_g", "fat_g", "insulin_u", "intensity", "note", "flags", "import_id", "line",
                 "metadata", "device_id"],
        changedWhen: ["end", "utc_offset", "carbs_g", "protein_g", "fat_g", "insulin_u", "intensity", "note", "flags", "metadata",
                      "device_id"], countBy: ["subject", "import_id"],
        dayOf: "CASE WHEN kind = 'episode' THEN NULL ELSE \(PGLocalDay.expression) END")

    static let profiles = PGTable(
        name: "subject_profiles",
        columns: ["subject", "source", "date_of_birth", "biological_sex", "blood_type", "skin_type", "attributes", "import_id"],
        key: ["subject", "source"],
        update: ["date_of_birth", "biological_sex", "blood_type", "skin_type", "attributes", "import_id"],
        changedWhen: ["date_of_birth", "biological_sex", "blood_type", "skin_type", "attributes"])

    static let dailySummaries = PGTable(
        name: "daily_summaries",
        columns: ["subject", "day", "metric", "unit", "n", "min", "max", "mean", "sd", "hypo", "hyper", "carbs_g", "insulin_u",
                  "exercise_min", "illness", "stress"],
        key: ["subject", "day", "metric"],
        update: ["unit", "n", "min", "max", "mean", "sd", "hypo", "hyper", "carbs_g", "insulin_u", "exercise_min", "illness", "stress"],
        changedWhen: ["unit", "n", "min", "max", "mean", "sd", "hypo", "hyper", "carbs_g", "insulin_u", "exercise_min", "illness",
                      "stress"])

    static let dailyBands = PGTable(name: "daily_bands", columns: ["subject", "day", "metric", "band", "percent"],
                                    key: ["subject", "day", "metric", "band"], update: ["percent"], changedWhen: ["percent"])

    static let glucoseMetrics = PGTable(
        name: "glucose_metrics", columns: ["subject", "metric", "period_start", "period_end", "name", "value", "unit"],
        key: ["subject", "metric", "period_start", "period_end", "name"], update: ["value", "unit"], changedWhen: ["value", "unit"])

    static let glucoseAGP = PGTable(
        name: "glucose_agp",
        columns: ["subject", "metric", "period_start", "period_end", "minute_of_day", "n", "p05", "p25", "p50", "p75", "p95"],
        key: ["subject", "metric", "period_start", "period_end", "minute_of_day"],
        update: ["n", "p05", "p25", "p50", "p75", "p95"], changedWhen: ["n", "p05", "p25", "p50", "p75", "p95"])

    static let forecasts = PGTable(
        name: "forecasts", columns: ["subject", "metric", "model", "issued_at", "at", "utc_offset", "value"],
        key: ["subject", "metric", "model", "issued_at", "at"], update: ["utc_offset", "value"], changedWhen: ["utc_offset", "value"])

    static let alerts = PGTable(
        name: "alerts",
        columns: ["subject", "metric", "kind", "start", "end", "utc_offset", "duration_min", "value", "threshold", "model"],
        key: ["subject", "metric", "kind", "start"],
        update: ["end", "utc_offset", "duration_min", "value", "threshold", "model"],
        changedWhen: ["end", "utc_offset", "duration_min", "value", "threshold", "model"])

    static let workoutRoutes = PGTable(
        name: "workout_routes",
        columns: ["subject", "source", "start", "name", "end", "utc_offset", "workout_start", "points", "device_id", "import_id", "line"],
        key: ["subject", "source", "start", "name"],
        update: ["end", "utc_offset", "workout_start", "points", "device_id", "import_id", "line"],
        changedWhen: ["end", "utc_offset", "workout_start", "points", "device_id"], countBy: ["import_id"], hasID: true)

    static let routePoints = PGTable(
        name: "route_points",
        columns: ["route_id", "seq", "time_ms", "latitude", "longitude", "elevation", "speed", "course", "horizontal_accuracy",
                  "vertical_accuracy"],
        key: ["route_id", "seq"],
        update: ["time_ms", "latitude", "longitude", "elevation", "speed", "course", "horizontal_accuracy", "vertical_accuracy"],
        changedWhen: ["time_ms", "latitude", "longitude", "elevation", "speed", "course", "horizontal_accuracy", "vertical_accuracy"])

    static let electrocardiograms = PGTable(
        name: "electrocardiograms",
        columns: ["subject", "source", "start", "end", "utc_offset", "classification", "symptoms", "average_heart_rate", "sampling_hz",
                  "lead", "samples", "metadata", "device_id", "import_id", "line"],
        key: ["subject", "source", "start"],
        update: ["end", "utc_offset", "classification", "symptoms", "average_heart_rate", "sampling_hz", "lead", "samples", "metadata",
                 "device_id", "import_id", "line"],
        changedWhen: ["end", "utc_offset", "classification", "symptoms", "average_heart_rate", "sampling_hz", "lead", "samples",
                      "metadata", "device_id"], countBy: ["import_id"], hasID: true)

    static let ecgSamples = PGTable(
        name: "ecg_samples", columns: ["ecg_id", "seq", "microvolts"], key: ["ecg_id", "seq"], update: ["microvolts"],
        changedWhen: ["microvolts"])

    static let motionSessions = PGTable(
        name: "motion_sessions",
        columns: ["subject", "device", "start_ms", "source", "end_ms", "start", "end", "utc_offset", "duration_s", "active_s", "average",
                  "accomplishment", "samples", "end_reason", "year", "month", "day", "time", "day_of_week", "days_in_month", "line",
                  "import_id"],
        key: ["subject", "device", "start_ms"],
        update: ["source", "end_ms", "end", "utc_offset", "duration_s", "active_s", "average", "accomplishment", "samples", "end_reason",
                 "year", "month", "day", "time", "day_of_week", "days_in_month", "line", "import_id"],
        changedWhen: ["source", "end_ms", "utc_offset", "average", "accomplishment", "samples", "end_reason"])

    /// Every table written through a stage, in the order a transaction moves them.
    static let all: [PGTable] = [measurements, events, profiles, dailySummaries, dailyBands, glucoseMetrics, glucoseAGP, forecasts, alerts,
                                 workoutRoutes, routePoints, electrocardiograms, ecgSamples, motionSessions]
}
