import HealthPipeCore

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
    /// With `countBy`: what the groups are reported by when not those columns, through `countJoin`
    /// (readings return their series and are reported by its subject).
    var reportBy: [String]?
    var countJoin = ""
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
        let report = reportBy?.joined(separator: ", ") ?? by
        return "WITH w AS (\(insert) RETURNING \(by)\(day), (xmax = 0) AS fresh) "
            + "SELECT \(report), count(*) FILTER (WHERE fresh), count(*), hp_day FROM w\(countJoin) GROUP BY \(report), hp_day"
    }

    /// Moves every staged row with a plain INSERT: for keys not stored yet (one that is fails it).
    var insert: String { "INSERT INTO \(name) (\(Self.q(columns))) SELECT \(Self.q(columns)) FROM \(stage)" }

    /// Readings, by series (`measurement_rows`); what moved is reported by subject.
    static let measurements: PGTable = {
        var t = PGTable(StoreTables.measurementRows, countBy: ["series", "import_id"], dayOf: PGLocalDay.expression)
        t.reportBy = ["ser.subject", "w.import_id"]
        t.countJoin = " JOIN measurement_series ser ON ser.id = w.series"
        return t
    }()
    static let events = PGTable(StoreTables.events, countBy: ["subject", "import_id"],
                                dayOf: "CASE WHEN kind = 'episode' THEN NULL ELSE \(PGLocalDay.expression) END")
    static let profiles = PGTable(StoreTables.subjectProfiles)
    static let dailySummaries = PGTable(StoreTables.dailySummaries)
    static let dailyBands = PGTable(StoreTables.dailyBands)
    static let glucoseMetrics = PGTable(StoreTables.glucoseMetrics)
    static let glucoseAGP = PGTable(StoreTables.glucoseAGP)
    static let forecasts = PGTable(StoreTables.forecasts)
    static let alerts = PGTable(StoreTables.alerts)
    static let workoutRoutes = PGTable(StoreTables.workoutRoutes, countBy: ["import_id"])
    static let routePoints = PGTable(StoreTables.routePoints)
    static let electrocardiograms = PGTable(StoreTables.electrocardiograms, countBy: ["import_id"])
    static let ecgSamples = PGTable(StoreTables.ecgSamples)
    static let motionSessions = PGTable(StoreTables.motionSessions)

    /// Every table written through a stage, in the order a transaction moves them.
    static let all: [PGTable] = [measurements, events, profiles, dailySummaries, dailyBands, glucoseMetrics, glucoseAGP, forecasts, alerts,
                                 workoutRoutes, routePoints, electrocardiograms, ecgSamples, motionSessions]
}

extension PGTable {
    /// The columns, key and compared columns of the table's description (`StoreTables`).
    init(_ table: TableDescription, countBy: [String] = [], dayOf: String? = nil) {
        self.init(name: table.name, columns: table.writtenColumns, key: table.naturalKey, update: table.updatedColumns,
                  changedWhen: table.comparedColumns, countBy: countBy, dayOf: dayOf, reportBy: nil, hasID: table.hasRowID)
    }
}
