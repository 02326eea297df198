import HealthPipeCore

/// The SQLite sink in `replace_derived` mode (`healthpipe reaggregate`): ONE transaction that
/// empties the derived tables, rewrites them from the incoming records and updates only the band
/// of stored readings; the grid rows of `resample` are reconciled with the incoming grid (rows
/// that come out the same are not rewritten, stale ones are deleted at the end). Events are already
/// stored and are not written. The transaction commits only when the run completes: an
/// interrupted or killed run leaves the previous derived data intact.
final class DerivedRewriteSession {
    let db: SQLiteConnection
    private let bands: BandWriter
    private let daily: DailySummaryWriter
    private let forecasts: ForecastWriter
    private let alerts: AlertWriter
    private let grid: GridWriter
    private let metricSets: MetricSetWriter
    static let cacheKiB = 16 * 1024

    init(path: String) throws {
        db = try SQLiteSchema.open(path: path)
        // One transaction rewrites bands in place across the whole table: a page cache that holds
        // the pages it dirties saves spilling and re-writing them (reaggregate's budget is 100 MiB;
        // streaming imports keep the 2 MiB default).
        try db.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
        let symbols = SymbolBytes()
        bands = try BandWriter(db: db, symbols: symbols)
        daily = try DailySummaryWriter(db: db, symbols: symbols)
        forecasts = try ForecastWriter(db: db, symbols: symbols)
        alerts = try AlertWriter(db: db, symbols: symbols)
        grid = try GridWriter(db: db, symbols: symbols, survey: StoredGridGroupsSurvey(path: path))
        metricSets = try MetricSetWriter(db: db, symbols: symbols)
        try db.execute("BEGIN IMMEDIATE")
        for table in DerivedTables.names { try db.execute("DELETE FROM \(table)") }
    }

    func write(_ batch: RecordBatch) throws {
        // A batch is either grid (from resample) or readings (from classify); mixed ones are split.
        let gridPoints = batch.measurements.reduce(0) { $0 + ($1.flags.contains(.interpolated) ? 1 : 0) }
        if gridPoints == 0 {
            try bands.write(batch.measurements[...])
        } else if gridPoints == batch.measurements.count {
            try grid.write(batch.measurements)
        } else {
            try grid.write(batch.measurements.filter { $0.flags.contains(.interpolated) })
            try bands.write(batch.measurements.filter { !$0.flags.contains(.interpolated) }[...])
        }
        try daily.write(batch.dailySummaries[...])
        try metricSets.write(batch.metricSets[...])
        try forecasts.write(batch.forecasts[...])
        try alerts.write(batch.alerts[...])
    }

    func finish(outcome: RunOutcome) throws {
        guard db.isInTransaction else { return }
        if outcome == .completed {
            try bands.flush()
            try grid.finish()
            try db.execute("COMMIT")
        } else {
            try db.execute("ROLLBACK")
        }
    }
}
