import HealthPipeCore

/// The `postgres` sink in `replace_derived` mode (re-aggregation and the refresh after an import):
/// ONE transaction that deletes the derived rows it replaces, writes the incoming ones of those rows,
/// updates the band of stored readings where it differs, stores the settings the rows follow and takes
/// what it brought up to date off `derived_pending`. Re-aggregation replaces everything; the refresh
/// replaces, as SQLite's does, the rows of the pending days only (`PostgresPendingDays`): their daily
/// rows and single-day sets, the grid of the days around them that the grid step reads, and — for a
/// subject pending whole, or steps that read whole histories — the subject's forecasts, alerts and
/// period sets. Rows of other days are neither deleted nor written. It commits only when the run
/// completes: an interrupted or killed run leaves everything as it was.
final class PGRewriteSession {
    let db: PGConnection
    /// Series ids, found or created outside the transaction (`PGSeries`).
    private let series: PGSeries
    private let pending: PostgresPendingDays?
    /// Per subject pending by day: the days whose grid rows are replaced.
    private var gridDays: [String: [ClosedRange<Int64>]] = [:]
    private let settings: [PostgresDerivationSettings.Row]?
    private var derived = DerivedStages()
    private var grid = StagedTable(.measurements)
    private var bands = CopyBuffer()
    static let flushRows = 50_000
    static let derivedTables = ["daily_summaries", "daily_bands", "glucose_metrics", "glucose_agp", "forecasts", "alerts"]

    init(url: PostgresURL, pending: PostgresPendingDays?, settings: [PostgresDerivationSettings.Row]?) throws {
        db = try PostgresSchema.open(url)
        series = PGSeries(db: try PGConnection(url))
        self.pending = pending
        self.settings = settings
        if let pending { for subject in pending.days.keys { gridDays[subject] = pending.gridRanges(subject) } }
        for t in PGTable.all { try db.execute(t.createStage()) }
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS hp_stage_bands (series bigint, start bigint, \"end\" bigint, band text)")
        try db.execute("BEGIN")
        if let pending {
            try PGScopedDeletes(db: db, pending: pending).run()
        } else {
            for table in Self.derivedTables { try db.execute("DELETE FROM \(table)") }
            try db.execute("DELETE FROM measurement_rows WHERE flags & 128 != 0")
        }
    }

    func write(_ batch: RecordBatch) throws {
        for m in batch.measurements {
            if m.flags.contains(.interpolated) {
                if let pending, !pending.whole.contains(m.subject.text),
                   gridDays[m.subject.text]?.contains(where: { $0.contains(m.localDay) }) != true { continue }
                grid.buffer.measurement(m, series: try series.id(of: m), importID: nil, deviceID: nil)
                grid.endRow(subject: m.subject)
                grid.duplicates = true
            } else {
                bands.int(try series.id(of: m)); bands.int(m.start); bands.int(m.end)
                bands.textOrNull(m.band)
                bands.endRow()
            }
        }
        for d in batch.dailySummaries where pending?.contains(d.subject, day: d.day) ?? true { derived.add(d) }
        for m in batch.metricSets where pending.map({ m.firstDay == m.lastDay ? $0.contains(m.subject, day: m.firstDay)
                                                                               : $0.containsWhole(m.subject) }) ?? true {
            derived.add(m)
        }
        for f in batch.forecasts where pending?.containsWhole(f.subject) ?? true { derived.add(f) }
        for a in batch.alerts where !a.kind.fromReports && (pending?.containsWhole(a.subject) ?? true) { derived.add(a) }
        if grid.buffer.rows + bands.rows + derived.rows >= Self.flushRows { try flush() }
    }

    private func flush() throws {
        if !bands.isEmpty {
            try db.copy(into: "hp_stage_bands", columns: ["series", "start", "end", "band"], rows: bands.bytes)
            // One probe of the key per staged row: left to choose, the planner hash-joins the whole table
            // (each batch then costs what the store holds) or, given the batch's key ranges, scans a
            // range per staged row.
            try db.execute("""
                SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;
                UPDATE measurement_rows m SET band = s.band FROM hp_stage_bands s
                 WHERE m.series = s.series AND m.start = s.start AND m."end" = s."end" AND m.band IS DISTINCT FROM s.band;
                RESET enable_hashjoin; RESET enable_mergejoin;
                TRUNCATE hp_stage_bands
                """)
            bands.reset()
        }
        try grid.flush(db)
        grid.reset()
        try derived.flush(db)
    }

    func finish(outcome: RunOutcome) throws {
        guard db.inTransaction else { return }
        guard outcome == .completed else { return try db.execute("ROLLBACK") }
        do {
            try flush()
            if let settings { try PostgresDerivationSettings.replace(settings, in: db) }
            if let pending {
                try PostgresPendingDays.remove(pending.rows, in: db)
            } else {
                try db.execute("DELETE FROM derived_pending")
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
