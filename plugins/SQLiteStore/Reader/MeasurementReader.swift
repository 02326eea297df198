import HealthPipeCore

/// Reads stored measurements back, one subject at a time in time order, in batches: the way the
/// `metrics` command feeds a database into the daily metrics without loading it whole. Resampled
/// (interpolated) rows are skipped, so metrics are computed from the readings themselves.
public final class MeasurementReader {
    let db: SQLiteConnection

    /// Opens an existing database read-only; refuses one written by a newer build.
    public init(path: String) throws {
        db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
    }

    /// Subjects that have rows of `metric`, sorted.
    public func subjects(metric: String) throws -> [String] {
        let s = try db.prepare("SELECT DISTINCT subject FROM measurements WHERE metric = ?1 ORDER BY subject")
        try s.bindText(1, metric)
        var out: [String] = []
        while try s.step() { if let t = s.text(0) { out.append(t) } }
        return out
    }

    /// Streams one subject's `metric` rows ordered by start time, `batchSize` at a time.
    public func read(subject: String, metric: String, batchSize: Int = 4096, _ body: ([Measurement]) throws -> Void) throws {
        let s = try db.prepare("""
            SELECT source, start, "end", utc_offset, value, unit, flags FROM measurements
            WHERE subject = ?1 AND metric = ?2 AND \(DerivedTables.readingMeasurements)
            ORDER BY start, source
            """)
        try s.bindText(1, subject)
        try s.bindText(2, metric)
        let subjectSymbol = Symbol(subject), metricSymbol = Symbol(metric)
        var sources: [String: Symbol] = [:]
        var batch: [Measurement] = []
        batch.reserveCapacity(batchSize)
        func symbol(_ text: String) -> Symbol {
            if let s = sources[text] { return s }
            let s = Symbol(text)
            sources[text] = s
            return s
        }
        while try s.step() {
            batch.append(Measurement(subject: subjectSymbol, metric: metricSymbol, source: symbol(s.text(0) ?? ""), start: s.int(1),
                                     end: s.int(2), utcOffset: Int32(truncatingIfNeeded: s.int(3)), value: s.double(4),
                                     unit: symbol(s.text(5) ?? ""), flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(6)))))
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// One subject's events (for the day totals: carbs, insulin, exercise, illness/stress episodes).
    public func events(subject: String, _ body: ([Event]) throws -> Void) throws {
        let s = try db.prepare("""
            SELECT kind, subtype, source, start, "end", utc_offset, carbs_g, insulin_u FROM events
            WHERE subject = ?1 ORDER BY start
            """)
        try s.bindText(1, subject)
        let subjectSymbol = Symbol(subject)
        var batch: [Event] = []
        while try s.step() {
            guard let kind = s.text(0).flatMap(Event.Kind.init(rawValue:)) else { continue }
            batch.append(Event(subject: subjectSymbol, kind: kind, subtype: Symbol(s.text(1) ?? ""), source: Symbol(s.text(2) ?? ""),
                               start: s.int(3), end: s.int(4), utcOffset: Int32(truncatingIfNeeded: s.int(5)),
                               carbs: s.isNull(6) ? nil : s.double(6), insulin: s.isNull(7) ? nil : s.double(7)))
            if batch.count == 4096 { try body(batch); batch.removeAll(keepingCapacity: true) }
        }
        if !batch.isEmpty { try body(batch) }
    }
}
