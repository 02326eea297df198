import HealthPipeCore

/// Stores health reports: the `reports` row and its `report_values` by (subject, id), and the
/// value measurements (source `report`). A report written again under its id replaces what that id
/// held — values it no longer has, or held at another time, are deleted — and a report at the
/// instant of another id replaces that one (one report per subject and instant, as one reading per
/// natural key). Every day whose rows change is pending, and never derived from the stream: report
/// summaries and alerts come from the store (`reports` step).
final class ReportWriter {
    private let db: SQLiteConnection
    private let imports: ImportLog
    private let measurements: MeasurementWriter
    private let pending: PendingDays
    private let selectReport: Statement, selectValues: Statement, selectAt: Statement
    private let upsertReport: Statement, deleteValues: Statement, insertValue: Statement
    private let deleteReport: Statement, deleteReading: Statement

    struct Stored: Equatable {
        var start: Int64, offset: Int32, note: String?
        var values: [HealthReport.Value]
    }

    init(db: SQLiteConnection, imports: ImportLog, measurements: MeasurementWriter, pending: PendingDays) throws {
        self.db = db
        self.imports = imports
        self.measurements = measurements
        self.pending = pending
        selectReport = try db.prepare("SELECT start, utc_offset, note FROM reports WHERE subject = ?1 AND id = ?2")
        selectValues = try db.prepare("""
            SELECT metric, value, unit, importance FROM report_values WHERE subject = ?1 AND report_id = ?2 ORDER BY metric
            """)
        selectAt = try db.prepare("SELECT id FROM reports WHERE subject = ?1 AND start = ?2")
        upsertReport = try db.prepare(UpsertSQL.replacing(StoreTables.reports))
        deleteValues = try db.prepare("DELETE FROM report_values WHERE subject = ?1 AND report_id = ?2")
        insertValue = try db.prepare(UpsertSQL.insert(StoreTables.reportValues))
        deleteReport = try db.prepare("DELETE FROM reports WHERE subject = ?1 AND id = ?2")
        deleteReading = try db.prepare("""
            DELETE FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = '\(HealthReport.source.text)' AND start = ?3 AND end = ?3
            """)
    }

    func write(_ rows: ArraySlice<HealthReport>, now: Int64) throws {
        for r in rows {
            try pending.prepare(r.subject)
            let subject = r.subject.text
            let stored = try load(subject: subject, id: r.id)
            let kept = Set(r.values.map(\.metric.text))
            if let other = try id(at: r.start, subject: subject), other != r.id, let o = try load(subject: subject, id: other) {
                try remove(o, subject: r.subject, id: other, keeping: kept)
            }
            if let stored {
                for v in stored.values where stored.start != r.start || !kept.contains(v.metric.text) {
                    try deleteReadingRow(subject: subject, metric: v.metric.text, start: stored.start)
                }
                if stored.start != r.start { try note(r.subject, day: LocalDays.day(stored.start, stored.offset)) }
            }
            let fresh = Stored(start: r.start, offset: r.utcOffset, note: r.note,
                               values: r.values.sorted { $0.metric.text < $1.metric.text }.map(Self.storedForm))
            let slot = try imports.slot(for: r.provenance.file)
            if stored != fresh {
                try writeRows(r, slot: slot, now: now)
                imports.countNewRows(1, slot: slot)
                try note(r.subject, day: r.localDay)
            }
            // The value readings themselves (they usually arrive beside the report too: no change then).
            try measurements.write(r.measurements[...])
        }
    }

    /// The stored report of an id (values in metric order), nil when there is none.
    func load(subject: String, id: String) throws -> Stored? {
        selectReport.reset()
        try selectReport.bindText(1, subject)
        try selectReport.bindText(2, id)
        guard try selectReport.step() else { return nil }
        var s = Stored(start: selectReport.int(0), offset: Int32(truncatingIfNeeded: selectReport.int(1)), note: selectReport.text(2), values: [])
        selectReport.reset()
        selectValues.reset()
        try selectValues.bindText(1, subject)
        try selectValues.bindText(2, id)
        while try selectValues.step() {
            s.values.append(.init(metric: Symbol(selectValues.text(0) ?? ""), value: selectValues.double(1),
                                  unit: Symbol(selectValues.text(2) ?? ""), importance: Int(selectValues.int(3))))
        }
        selectValues.reset()
        return s
    }

    private func id(at start: Int64, subject: String) throws -> String? {
        selectAt.reset()
        defer { selectAt.reset() }
        try selectAt.bindText(1, subject)
        try selectAt.bindInt(2, start)
        return try selectAt.step() ? selectAt.text(0) : nil
    }

    /// Deletes a report that another takes the place of; readings of `keeping` stay (the newcomer rewrites them).
    private func remove(_ s: Stored, subject: Symbol, id: String, keeping: Set<String>) throws {
        for v in s.values where !keeping.contains(v.metric.text) {
            try deleteReadingRow(subject: subject.text, metric: v.metric.text, start: s.start)
        }
        for st in [deleteValues, deleteReport] {
            try st.bindText(1, subject.text)
            try st.bindText(2, id)
            try st.run()
        }
        try note(subject, day: LocalDays.day(s.start, s.offset))
    }

    private func deleteReadingRow(subject: String, metric: String, start: Int64) throws {
        try deleteReading.bindText(1, subject)
        try deleteReading.bindText(2, metric)
        try deleteReading.bindInt(3, start)
        try deleteReading.run()
    }

    private func writeRows(_ r: HealthReport, slot: Int32, now: Int64) throws {
        let s = upsertReport
        try s.bindText(1, r.subject.text)
        try s.bindText(2, r.id)
        try s.bindInt(3, r.start)
        try s.bindInt(4, Int64(r.utcOffset))
        try s.bindText(5, r.note)
        try imports.bindOrigin(slot: slot, line: r.provenance.line, to: s, at: 6)
        try s.bindInt(8, now)
        try s.run()
        try deleteValues.bindText(1, r.subject.text)
        try deleteValues.bindText(2, r.id)
        try deleteValues.run()
        for v in r.values {
            try insertValue.bindText(1, r.subject.text)
            try insertValue.bindText(2, r.id)
            try insertValue.bindText(3, v.metric.text)
            try insertValue.bindDouble(4, v.value)
            try insertValue.bindText(5, v.unit.text)
            try insertValue.bindInt(6, Int64(v.importance))
            try insertValue.run()
        }
    }

    /// Report days are pending and contested: their summaries and alerts come from the store.
    private func note(_ subject: Symbol, day: Int64) throws {
        try pending.note(subject: subject, day: day, changed: true, contested: true)
    }

    /// A value as it reads back from the store (flags are not kept in report_values).
    static func storedForm(_ v: HealthReport.Value) -> HealthReport.Value {
        HealthReport.Value(metric: v.metric, value: v.value, unit: v.unit, importance: v.importance)
    }
}
