import HealthPipeCore

/// The SQLite sink in `replace_derived` mode: ONE transaction that replaces derived rows with the
/// incoming ones and updates only the band of stored readings; events are already stored and are
/// not written. `healthpipe reaggregate` replaces everything (the resample grid is reconciled with
/// the incoming grid: rows that come out the same are not rewritten, stale ones are deleted); the
/// refresh after an import replaces the rows of the pending days only (`DerivedScope`). The
/// transaction also stores the settings the rows follow and empties `derived_pending` of what it
/// brought up to date (`RefreshScope.reports` replaces only the report-derived rows and leaves
/// the pending days). It commits only when the run completes: an interrupted or killed run leaves
/// the previous derived data — and the pending days — as they were.
final class DerivedRewriteSession {
    let db: SQLiteConnection
    private let scope: DerivedScope
    private let settings: [DerivationSettingsTable.Row]?
    private let bands: BandWriter
    private let daily: DailySummaryWriter
    private let forecasts: RowUpsert<ForecastPoint>
    private let alerts: RowUpsert<Alert>
    private let grid: GridWriter?
    private let scopedGrid: GridUpsert
    private let metricSets: MetricSetWriter
    private let reportDays: RowUpsert<ReportDay>
    static let cacheKiB = 16 * 1024

    init(path: String, scope: RefreshScope, settings: [DerivationSettingsTable.Row]?) throws {
        db = try SQLiteSchema.open(path: path)
        // One transaction rewrites bands in place across the whole table: a page cache that holds
        // the pages it dirties saves spilling and re-writing them (reaggregate's budget is 100 MiB;
        // streaming imports keep the 2 MiB default).
        try db.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
        let symbols = SymbolBytes()
        bands = try BandWriter(db: db, symbols: symbols)
        daily = try DailySummaryWriter(db: db, symbols: symbols)
        forecasts = try RowUpsert(db: db, table: StoreTables.forecasts) { try $0.bindUpsert($1, symbols) }
        alerts = try RowUpsert(db: db, table: StoreTables.alerts) { try $0.bindUpsert($1, symbols) }
        scopedGrid = try GridUpsert(db: db, symbols: symbols)
        metricSets = try MetricSetWriter(db: db, symbols: symbols)
        reportDays = try RowUpsert(db: db, table: StoreTables.reportDays) { try $0.bindUpsert($1, symbols) }
        self.settings = settings
        // The write lock comes before anything is read: the source, on its own connection, then
        // sees the same pending days this transaction empties.
        try db.execute("BEGIN IMMEDIATE")
        self.scope = try DerivedScope(scope, db: db)
        // Only a full re-aggregation reconciles the whole grid (it deletes stored grid rows not rewritten).
        grid = scope.pendingOnly || scope.reportsOnly ? nil : try GridWriter(db: db, symbols: symbols, survey: StoredGridGroupsSurvey(path: path))
        try deleteReplacedRows()
    }

    /// The metrics `table` (keyed subject, metric, …) holds rows of for `subject`, sought one by one.
    static func metrics(of table: String, subject: String, in db: SQLiteConnection) throws -> [String] {
        let next = try db.prepare("SELECT min(metric) FROM \(table) WHERE subject = ?1 AND metric > ?2")
        var out: [String] = []
        while true {
            next.reset()
            try next.bindText(1, subject)
            try next.bindText(2, out.last ?? "")
            guard try next.step(), let m = next.text(0) else { return out }
            out.append(m)
        }
    }

    private func deleteReplacedRows() throws {
        if scope.reportsOnly {
            for sql in DerivedTables.reportDeletes { try db.execute(sql) }
            return
        }
        guard scope.pendingOnly else {
            for table in DerivedTables.names { try db.execute("DELETE FROM \(table)") }
            return
        }
        let deletes = try DerivedTables.dayDeletes.map { try db.prepare($0) }
        let byMetric = try DerivedTables.dayDeletesByMetric.map { (table: $0.table, statement: try db.prepare($0.sql)) }
        let wholes = try DerivedTables.subjectDeletes.map { try db.prepare($0) }
        let reports = try DerivedTables.reportSubjectDeletes.map { try db.prepare($0) }
        let gridDelete = try db.prepare(DerivedTables.gridDelete)
        let groups = try MeasurementGroups.all(db)
        for subject in scope.subjects {
            let metrics = try byMetric.map { try Self.metrics(of: $0.table, subject: subject.text, in: db) }
            for day in scope.days[subject] ?? [] {
                let iso = CivilDate.isoDate(fromDays: day)
                for s in deletes {
                    try s.bindText(1, subject.text)
                    try s.bindText(2, iso)
                    try s.run()
                }
                for (i, d) in byMetric.enumerated() {
                    for metric in metrics[i] {
                        try d.statement.bindText(1, subject.text)
                        try d.statement.bindText(2, iso)
                        try d.statement.bindText(3, metric)
                        try d.statement.run()
                    }
                }
            }
            for s in reports {
                try s.bindText(1, subject.text)
                try s.run()
            }
            if scope.containsWhole(subject) {
                for s in wholes {
                    try s.bindText(1, subject.text)
                    try s.run()
                }
            }
            for days in scope.gridDays[subject] ?? [] {
                for g in groups where g.subject == subject.text {
                    try gridDelete.bindText(1, subject.text)
                    try gridDelete.bindInt(2, days.lowerBound * 86_400)
                    try gridDelete.bindInt(3, (days.upperBound + 1) * 86_400 - 1)
                    try gridDelete.bindInt(4, LocalDays.utcBounds(days).lowerBound)
                    try gridDelete.bindInt(5, LocalDays.utcBounds(days).upperBound)
                    try gridDelete.bindText(6, g.metric)
                    try gridDelete.bindText(7, g.source)
                    try gridDelete.run()
                }
            }
        }
    }

    func write(_ batch: RecordBatch) throws {
        if scope.reportsOnly {
            try alerts.write(batch.alerts.filter { $0.kind.fromReports }[...])
            return try reportDays.write(batch.reportDays[...])
        }
        // A batch is either grid (from resample) or readings (from classify); mixed ones are split.
        let gridPoints = batch.measurements.reduce(0) { $0 + ($1.flags.contains(.interpolated) ? 1 : 0) }
        if gridPoints == 0 {
            try bands.write(batch.measurements[...])
        } else {
            try writeGrid(batch.measurements.filter { $0.flags.contains(.interpolated) })
            if gridPoints < batch.measurements.count {
                try bands.write(batch.measurements.filter { !$0.flags.contains(.interpolated) }[...])
            }
        }
        guard scope.pendingOnly else {
            try daily.write(batch.dailySummaries[...])
            try metricSets.write(batch.metricSets[...])
            try forecasts.write(batch.forecasts[...])
            try alerts.write(batch.alerts[...])
            try reportDays.write(batch.reportDays[...])
            return
        }
        try daily.write(batch.dailySummaries.filter { scope.contains($0.subject, day: $0.day) }[...])
        try metricSets.write(batch.metricSets.filter {
            $0.firstDay == $0.lastDay ? scope.contains($0.subject, day: $0.firstDay) : scope.containsWhole($0.subject)
        }[...])
        try forecasts.write(batch.forecasts.filter { scope.containsWhole($0.subject) }[...])
        try alerts.write(batch.alerts.filter {
            scope.containsWhole($0.subject) || ($0.kind.fromReports && scope.containsReports($0.subject))
        }[...])
        try reportDays.write(batch.reportDays.filter { scope.containsReports($0.subject) }[...])
    }

    private func writeGrid(_ points: [HealthPipeCore.Measurement]) throws {
        if let grid { return try grid.write(points) }
        try scopedGrid.write(points.filter { scope.containsGrid($0.subject, day: $0.localDay) })
    }

    func finish(outcome: RunOutcome) throws {
        guard db.isInTransaction else { return }
        guard outcome == .completed else { return try db.execute("ROLLBACK") }
        try bands.flush()
        try grid?.finish()
        if let settings { try DerivationSettingsTable.replace(settings, in: db) }
        // Report settings change nothing a pending day waits for: those stay pending.
        guard !scope.reportsOnly else { return try db.execute("COMMIT") }
        if let pending = scope.pending {
            let delete = try db.prepare("DELETE FROM derived_pending WHERE subject = ?1 AND day = ?2")
            for (subject, days) in pending.days {
                for day in days {
                    try delete.bindText(1, subject)
                    try delete.bindText(2, CivilDate.isoDate(fromDays: day))
                    try delete.run()
                }
            }
        } else {
            try db.execute("DELETE FROM derived_pending")
        }
        try db.execute("COMMIT")
    }
}
