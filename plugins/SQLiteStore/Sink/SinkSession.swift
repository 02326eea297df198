import HealthPipeCore

/// Everything one run of the SQLite sink holds open: the connection, the batching transaction,
/// the imports log and one writer (one prepared statement) per record shape.
final class SinkSession {
    let db: SQLiteConnection
    let transaction: BatchTransaction
    let imports: ImportLog
    private let devices: DeviceTable
    private let measurements: MeasurementWriter
    private let events: EventWriter
    private let daily: DailySummaryWriter
    private let profiles: ProfileWriter
    private let metricSets: MetricSetWriter
    private let forecasts: ForecastWriter
    private let alerts: AlertWriter
    private let motionSessions: MotionSessionWriter
    private let routes: RouteWriter
    private let electrocardiograms: ElectrocardiogramWriter

    init(path: String, batchRows: Int, run: RunInfo) throws {
        db = try SQLiteSchema.open(path: path)
        transaction = BatchTransaction(db: db, batchRows: batchRows)
        imports = try ImportLog(db: db, startedAt: run.startedAt)
        let symbols = SymbolBytes()
        devices = try DeviceTable(db: db)
        measurements = try MeasurementWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        events = try EventWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        daily = try DailySummaryWriter(db: db, symbols: symbols)
        profiles = try ProfileWriter(db: db, symbols: symbols, imports: imports)
        metricSets = try MetricSetWriter(db: db, symbols: symbols)
        forecasts = try ForecastWriter(db: db, symbols: symbols)
        alerts = try AlertWriter(db: db, symbols: symbols)
        motionSessions = try MotionSessionWriter(db: db, symbols: symbols)
        routes = try RouteWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        electrocardiograms = try ElectrocardiogramWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        // new_rows commits atomically with the rows it counts.
        transaction.beforeCommit = { [imports] in try imports.flushNewRows() }

        // Committed at once, so a killed run is visible as 'running' in the imports table.
        try db.transaction {
            for path in run.inputPaths { try imports.start(path: path) }
        }
    }

    func write(_ batch: RecordBatch) throws {
        do {
            try transaction.write(count: batch.measurements.count) { try measurements.write(batch.measurements[$0]) }
            try transaction.write(count: batch.events.count) { try events.write(batch.events[$0]) }
            try transaction.write(count: batch.dailySummaries.count) { try daily.write(batch.dailySummaries[$0]) }
            try transaction.write(count: batch.profiles.count) { try profiles.write(batch.profiles[$0]) }
            try transaction.write(count: batch.metricSets.count) { try metricSets.write(batch.metricSets[$0]) }
            try transaction.write(count: batch.forecasts.count) { try forecasts.write(batch.forecasts[$0]) }
            try transaction.write(count: batch.alerts.count) { try alerts.write(batch.alerts[$0]) }
            try transaction.write(count: batch.motionSessions.count) { try motionSessions.write(batch.motionSessions[$0]) }
            try transaction.write(count: batch.routes.count) { try routes.write(batch.routes[$0]) }
            try transaction.write(count: batch.electrocardiograms.count) { try electrocardiograms.write(batch.electrocardiograms[$0]) }
            // A live stream may run for days: a finished session is committed at once, not at the end.
            if !batch.motionSessions.isEmpty { try transaction.commit() }
        } catch {
            // SQLite may already have rolled back (SQLITE_FULL…); keep counts in step with the file.
            if !transaction.isOpen {
                imports.discardPending()
                devices.forget()
            }
            throw error
        }
    }

    /// Commits the open transaction, then records each file's outcome. A failed commit still
    /// marks the files failed before the error is rethrown.
    func finish(outcome: RunOutcome, report: RunReport, finishedAt: Int64) throws {
        var commitError: Error?
        do {
            try transaction.commit()
        } catch {
            commitError = error
            imports.discardPending()
        }
        let status: String
        switch commitError == nil ? outcome : .failed {
        case .completed: status = "complete"
        case .interrupted: status = "interrupted"
        case .failed: status = "failed"
        }
        try db.transaction {
            try imports.finish(inputs: report.inputs, status: status, finishedAt: finishedAt)
        }
        if let commitError { throw commitError }
    }
}
