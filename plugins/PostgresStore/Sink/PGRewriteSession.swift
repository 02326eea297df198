import HealthPipeCore

/// The `postgres` sink in `replace_derived` mode (re-aggregation and the refresh after an import):
/// ONE transaction that deletes the derived rows of its subjects (all, or `subjects`), writes the
/// incoming ones, updates the band of stored readings where it differs, replaces the resample grid,
/// stores the settings the rows follow and takes the subjects off `derived_pending`. It commits only
/// when the run completes: an interrupted or killed run leaves everything as it was.
final class PGRewriteSession {
    let db: PGConnection
    private let subjects: [String]?
    private let settings: [PostgresDerivationSettings.Row]?
    private var derived = DerivedStages()
    private var grid = StagedTable(.measurements)
    private var bands = CopyBuffer()
    static let flushRows = 50_000
    static let derivedTables = ["daily_summaries", "daily_bands", "glucose_metrics", "glucose_agp", "forecasts", "alerts"]

    init(url: PostgresURL, subjects: [String]?, settings: [PostgresDerivationSettings.Row]?) throws {
        db = try PostgresSchema.open(url)
        self.subjects = subjects
        self.settings = settings
        for t in PGTable.all { try db.execute(t.createStage()) }
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS hp_stage_bands (subject text COLLATE \"C\", metric text COLLATE \"C\", "
                       + "source text COLLATE \"C\", start bigint, \"end\" bigint, band text)")
        try db.execute("BEGIN")
        let filter = subjects == nil ? "" : " WHERE subject = ANY($1::text[])"
        let parameters = subjects.map { [PGArray.text($0)] } ?? []
        for table in Self.derivedTables { try db.query("DELETE FROM \(table)\(filter)", parameters) }
        try db.query("DELETE FROM measurements WHERE flags & 128 != 0" + (subjects == nil ? "" : " AND subject = ANY($1::text[])"), parameters)
    }

    func write(_ batch: RecordBatch) throws {
        for m in batch.measurements {
            if m.flags.contains(.interpolated) {
                grid.buffer.measurement(m, importID: nil, deviceID: nil)
                grid.endRow(subject: m.subject)
                grid.duplicates = true
            } else {
                bands.text(m.subject); bands.text(m.metric); bands.text(m.source); bands.int(m.start); bands.int(m.end)
                bands.textOrNull(m.band)
                bands.endRow()
            }
        }
        for d in batch.dailySummaries { derived.add(d) }
        for m in batch.metricSets { derived.add(m) }
        for f in batch.forecasts { derived.add(f) }
        for a in batch.alerts where !a.kind.fromReports { derived.add(a) }
        if grid.buffer.rows + bands.rows + derived.rows >= Self.flushRows { try flush() }
    }

    private func flush() throws {
        if !bands.isEmpty {
            try db.copy(into: "hp_stage_bands", columns: ["subject", "metric", "source", "start", "end", "band"], rows: bands.bytes)
            try db.execute("""
                UPDATE measurements m SET band = s.band FROM hp_stage_bands s
                 WHERE m.subject = s.subject AND m.metric = s.metric AND m.source = s.source AND m.start = s.start
                   AND m."end" = s."end" AND m.band IS DISTINCT FROM s.band;
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
            if let subjects {
                try db.query("DELETE FROM derived_pending WHERE subject = ANY($1::text[])", [PGArray.text(subjects)])
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
