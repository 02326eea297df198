import Foundation
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
    private let profiles: RowUpsert<SubjectProfile>
    private let metricSets: MetricSetWriter
    private let motionSessions: RowUpsert<MotionSession>
    private let routes: RouteWriter
    private let electrocardiograms: ElectrocardiogramWriter
    private let reports: ReportWriter
    private let entries: EntryWriter
    private let pending: PendingDays
    private let deletedRows: DeletedRowsGuard
    /// Daily summaries and day metric sets that arrive are written for fresh days (and those days
    /// taken off `derived_pending`) only when every step of the database's derivation settings is
    /// in the stream with those settings, seeing exactly the readings stored here; otherwise they
    /// are left to the refresh, which computes them from the store.
    let derivedFromStream: Bool
    /// Rows deleted by hand that this run brought again and kept deleted.
    var keptDeleted: Int { deletedRows.keptDeleted }

    init(path: String, batchRows: Int, run: RunInfo, trustedSteps: Set<String>, restoreDeleted: Bool) throws {
        db = try SQLiteSchema.open(path: path)
        transaction = BatchTransaction(db: db, batchRows: batchRows)
        let imports = try ImportLog(db: db, startedAt: run.startedAt)
        self.imports = imports
        let symbols = SymbolBytes()
        devices = try DeviceTable(db: db)
        pending = try PendingDays(db: db)
        deletedRows = try DeletedRowsGuard(db: db, restore: restoreDeleted)
        let stored = Set(try DerivationSettingsTable.read(db).map(\.step))
        derivedFromStream = DerivationSettings.streamDerives(storedSteps: stored, trusted: trustedSteps)
        measurements = try MeasurementWriter(db: db, symbols: symbols, imports: imports, devices: devices, pending: pending)
        events = try EventWriter(db: db, symbols: symbols, imports: imports, devices: devices, pending: pending)
        daily = try DailySummaryWriter(db: db, symbols: symbols)
        profiles = try RowUpsert(db: db, table: StoreTables.subjectProfiles) { try $0.bindUpsert($1, symbols, imports) }
        metricSets = try MetricSetWriter(db: db, symbols: symbols)
        motionSessions = try RowUpsert(db: db, table: StoreTables.motionSessions) { try $0.bindUpsert($1, symbols, imports) }
        routes = try RouteWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        electrocardiograms = try ElectrocardiogramWriter(db: db, symbols: symbols, imports: imports, devices: devices)
        reports = try ReportWriter(db: db, imports: imports, measurements: measurements, pending: pending)
        entries = try EntryWriter(db: db, events: events, pending: pending)
        // new_rows and the pending days commit atomically with the rows they describe; rows deleted
        // by hand that the import wrote again are deleted again in the same transaction.
        transaction.beforeCommit = { [imports, pending, deletedRows] in
            try deletedRows.apply()
            try imports.flushNewRows()
            try pending.flush()
        }

        // Committed at once, so a killed run is visible as 'running' in the imports table.
        try db.transaction {
            for path in run.inputPaths { try imports.start(path: path) }
        }
    }

    func write(_ batch: RecordBatch) throws {
        do {
            // Grid values, forecasts and alerts are derived from whole histories: the refresh computes
            // them from the store with the database's settings, never from a passing stream.
            let readings = batch.measurements.contains { $0.flags.contains(.interpolated) }
                ? batch.measurements.filter { !$0.flags.contains(.interpolated) } : batch.measurements
            // Reports and entries first: what their ids held before is read (and deleted where it is
            // no longer theirs) before the rows beside them overwrite it.
            let now = Int64(Date().timeIntervalSince1970)
            try transaction.write(count: batch.reports.count) { try reports.write(batch.reports[$0], now: now) }
            try transaction.write(count: batch.entries.count) { try entries.write(batch.entries[$0], now: now) }
            try transaction.write(count: readings.count) { try measurements.write(readings[$0]) }
            try transaction.write(count: batch.events.count) { try events.write(batch.events[$0]) }
            if derivedFromStream {
                let days = batch.dailySummaries.filter { pending.isFresh(subject: $0.subject, day: $0.day) }
                try transaction.write(count: days.count) { range in
                    try daily.write(days[range])
                    for d in days[range] { try pending.settle(subject: d.subject, day: d.day) }
                }
                let sets = batch.metricSets.filter { $0.firstDay == $0.lastDay && pending.isFresh(subject: $0.subject, day: $0.firstDay) }
                try transaction.write(count: sets.count) { try metricSets.write(sets[$0]) }
            }
            try transaction.write(count: batch.profiles.count) { try profiles.write(batch.profiles[$0]) }
            try transaction.write(count: batch.motionSessions.count) { try motionSessions.write(batch.motionSessions[$0]) }
            try transaction.write(count: batch.routes.count) { try routes.write(batch.routes[$0]) }
            try transaction.write(count: batch.electrocardiograms.count) { try electrocardiograms.write(batch.electrocardiograms[$0]) }
            // Rows deleted by hand that this batch wrote again go again now, so the run can say how many.
            if transaction.isOpen { try deletedRows.apply() }
            // A live stream may run for days: a finished session is committed at once, not at the end.
            if !batch.motionSessions.isEmpty { try transaction.commit() }
        } catch {
            // SQLite may already have rolled back (SQLITE_FULL…); keep counts in step with the file.
            if !transaction.isOpen {
                imports.discardPending()
                pending.discardUnflushed()
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
            pending.discardUnflushed()
        }
        let status = (commitError == nil ? outcome : .failed).importStatus
        try db.transaction {
            try imports.finish(inputs: report.inputs, status: status, finishedAt: finishedAt)
        }
        if let commitError { throw commitError }
    }
}
