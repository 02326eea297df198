import HealthPipeCore

/// The (subject, metric, source) a grid value belongs to.
struct GridSeries: Hashable {
    var subject: Symbol, metric: Symbol, source: Symbol

    init(_ m: HealthPipeCore.Measurement) {
        subject = m.subject
        metric = m.metric
        source = m.source
    }
}

/// Re-aggregation's writer for `resample` output (grid values: derived rows of `measurements` with
/// the interpolated flag). A re-run mostly produces the grid that is already stored, so rather than
/// deleting and re-inserting a million rows it reconciles each series with the stored one: rows
/// stored exactly as they would be written are left alone, new or changed points are written,
/// stored grid rows no longer produced are deleted. The end state is the one a delete-everything-
/// and-insert would leave; it all happens in the rewrite's one transaction.
///
/// A series' points arrive in batches, in time order except where the clock goes back (a DST change
/// with a bridged gap). The points of a batch after the series' reconciled time are merged in key
/// order with the stored rows of their time span, which then counts as reconciled; a point at or
/// before it is upserted as a fresh insert would be (its stored row, if any, was deleted as stale
/// when its span was reconciled: those few rows are written again on every run). `finish` deletes
/// what lies after each series' reconciled time and the grid rows of every series not written at
/// all (which series hold grid rows is surveyed in the background from the start: for a series of
/// readings it takes a scan of all of them).
final class GridWriter {
    static let deleteRangeSQL = """
        DELETE FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3
          AND (start, end) >= (?4, ?5) AND (start, end) <= (?6, ?7) AND \(DerivedTables.interpolatedMeasurements)
        """
    static let deleteAfterSQL = """
        DELETE FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start > ?4 AND \(DerivedTables.interpolatedMeasurements)
        """
    static let deleteSeriesSQL = """
        DELETE FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND \(DerivedTables.interpolatedMeasurements)
        """

    private let db: SQLiteConnection
    private let symbols: SymbolBytes
    private let upsert: GridUpsert
    private let stored: StoredGridRows
    private let deleteRange: Statement
    private let deleteAfter: Statement
    private let deleteSeries: Statement
    /// Per series written: every stored row with a start up to this one has been reconciled.
    private var reconciled: [GridSeries: Int64] = [:]
    /// Which groups held grid rows before this run.
    private let survey: StoredGridGroupsSurvey
    // Reused between batches.
    private var fresh: [HealthPipeCore.Measurement] = []
    private var rows: [StoredGridRow] = []
    private var inserts: [HealthPipeCore.Measurement] = []

    /// `survey` must have been started before this run's first write.
    init(db: SQLiteConnection, symbols: SymbolBytes, survey: StoredGridGroupsSurvey) throws {
        self.db = db
        self.survey = survey
        self.symbols = symbols
        upsert = try GridUpsert(db: db, symbols: symbols)
        stored = try StoredGridRows(db: db, symbols: symbols)
        deleteRange = try db.prepare(Self.deleteRangeSQL, persistent: true)
        deleteAfter = try db.prepare(Self.deleteAfterSQL)
        deleteSeries = try db.prepare(Self.deleteSeriesSQL)
    }

    /// Writes grid values in the order `resample` emitted them.
    func write(_ points: [HealthPipeCore.Measurement]) throws {
        var i = 0
        while i < points.count {
            let series = GridSeries(points[i])
            var j = i + 1
            while j < points.count && GridSeries(points[j]) == series { j += 1 }
            try reconcile(series, points[i..<j])
            i = j
        }
    }

    /// Deletes the stored grid rows no point of this run stands for; call before committing.
    func finish() throws {
        for (series, done) in reconciled {
            try bind(series, to: deleteAfter)
            try deleteAfter.bindInt(4, done)
            try deleteAfter.run()
        }
        let written = Set(reconciled.keys.map { MeasurementGroup(subject: $0.subject.text, metric: $0.metric.text, source: $0.source.text) })
        // Should the background survey fail, this transaction's own view gives the same answer for
        // the series this run did not write.
        let holding = try (try? survey.groups()) ?? StoredGridGroups.all(db)
        for g in holding where !written.contains(g) {
            try deleteSeries.bindText(1, g.subject)
            try deleteSeries.bindText(2, g.metric)
            try deleteSeries.bindText(3, g.source)
            try deleteSeries.run()
        }
    }

    private func reconcile(_ series: GridSeries, _ points: ArraySlice<HealthPipeCore.Measurement>) throws {
        let done = reconciled[series]
        fresh.removeAll(keepingCapacity: true)
        if let done, points.contains(where: { $0.start <= done }) {
            try upsert.write(Array(points.filter { $0.start <= done }))
            fresh.append(contentsOf: points.lazy.filter { $0.start > done })
        } else {
            fresh.append(contentsOf: points)
        }
        guard !fresh.isEmpty else { return }
        GridKeyOrder.sortAndMerge(&fresh)
        let through = fresh[fresh.count - 1].start
        try stored.read(series, from: done.map { $0 + 1 } ?? .min, through: through, into: &rows)
        reconciled[series] = through

        // Merge by key; stored rows that go are deleted in runs (no point falls inside a run), and
        // every insert waits until the deletes are done.
        inserts.removeAll(keepingCapacity: true)
        var i = 0, j = 0
        var run: (first: Int, last: Int)?
        func endRun() throws {
            guard let r = run else { return }
            try deleteRows(series, from: rows[r.first], through: rows[r.last])
            run = nil
        }
        while i < rows.count || j < fresh.count {
            let order = i == rows.count ? 1 : j == fresh.count ? -1 : GridKeyOrder.compare(rows[i], fresh[j])
            if order < 0 {
                run = (run?.first ?? i, i)
                i += 1
            } else if order > 0 {
                try endRun()
                inserts.append(fresh[j])
                j += 1
            } else {
                if rows[i].isWritten(as: fresh[j]) {
                    try endRun()
                } else {
                    run = (run?.first ?? i, i)
                    inserts.append(fresh[j])
                }
                i += 1
                j += 1
            }
        }
        try endRun()
        try upsert.write(inserts)
    }

    private func deleteRows(_ series: GridSeries, from a: StoredGridRow, through b: StoredGridRow) throws {
        let s = deleteRange
        try bind(series, to: s)
        try s.bindInt(4, a.start)
        try s.bindInt(5, a.end)
        try s.bindInt(6, b.start)
        try s.bindInt(7, b.end)
        try s.run()
    }

    private func bind(_ series: GridSeries, to s: Statement) throws {
        try symbols.bind(series.subject, to: s, at: 1)
        try symbols.bind(series.metric, to: s, at: 2)
        try symbols.bind(series.source, to: s, at: 3)
    }
}
