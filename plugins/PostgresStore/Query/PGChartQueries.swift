import HealthPipeCore

/// The views' reads from a PostgreSQL store, answered as SQLite's `ChartQueries` answers them (same
/// rows, same order), so `chart` and `page` draw the same from either store. Each read is a seek per
/// series of one subject (its series by name, then a range of each one's key — `PGSeriesSQL`),
/// never a scan of the whole table.
public final class PGChartQueries: StoreReader {
    let db: PGConnection

    /// A database without HealthPipe tables.
    public struct NotAStore: Error, CustomStringConvertible {
        public var description: String { "not a HealthPipe database (it has no HealthPipe tables)" }
    }

    /// Opens an existing store (an older schema is brought up to date, a newer one refused); a
    /// database that no healthpipe has written to is an error, never an empty store.
    public init(url: PostgresURL) throws {
        db = try PGConnection(url)
        guard let version = try PostgresSchema.storedVersion(db) else { throw NotAStore() }
        if version != PostgresSchema.version { try PostgresSchema.migrate(db) }
    }

    public func subjects(metric: String) throws -> [String] {
        let rows = try db.query("WITH RECURSIVE " + PGSubjectWalk.cte("s", of: "measurement_series") + """
             SELECT subject FROM s WHERE EXISTS (SELECT 1 FROM \(PGSeriesSQL.withReadings("ser.subject = s.subject AND ser.metric = $1")))
             ORDER BY subject
            """, [metric])
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }

    /// The series of a subject's `metric` that hold readings, with the flags of each one's first row: a
    /// source that starts with a grid value (resample's) holds no readings (as `ChartQueries.readingSources`).
    static let sourcesCTE = """
        WITH s(series, source, flags) AS (
            SELECT ser.id, ser.source, f.flags FROM measurement_series ser,
                LATERAL (SELECT flags FROM measurement_rows r WHERE r.series = ser.id ORDER BY r.start, r."end" LIMIT 1) f
             WHERE ser.subject = $1 AND ser.metric = $2
        )
        """
    static let grid = RecordFlags.interpolated.rawValue

    public func readings(subject: String, metric: String, fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        let rows = try db.query(Self.sourcesCTE + """
            SELECT s.source, m.start, m."end", m.utc_offset, m.value, m.unit, m.flags, m.band FROM s,
                LATERAL (SELECT * FROM measurement_rows m WHERE m.series = s.series AND m.start >= $3 AND m.start < $4 OFFSET 0) m
             WHERE s.flags & \(Self.grid) = 0 AND m.flags & \(Self.grid) = 0
             ORDER BY m.start, s.source, m."end"
            """, [subject, metric, String(fromUTC), String(toUTC)])
        let subjectSymbol = Symbol(subject), metricSymbol = Symbol(metric)
        var texts = SymbolColumn()
        var out: [Measurement] = []
        out.reserveCapacity(rows.count)
        for r in 0..<rows.count {
            out.append(Measurement(subject: subjectSymbol, metric: metricSymbol, source: texts.symbol(rows, r, 0), start: rows.int(r, 1),
                                   end: rows.int(r, 2), utcOffset: Int32(truncatingIfNeeded: rows.int(r, 3)), value: rows.double(r, 4),
                                   unit: texts.symbol(rows, r, 5), flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: rows.int(r, 6))),
                                   band: rows.isNull(r, 7) || rows.bytes(r, 7).isEmpty ? .empty : texts.symbol(rows, r, 7)))
        }
        return out
    }

    public func readingSpan(subject: String, metric: String) throws -> (first: Measurement, last: Measurement)? {
        var first: Measurement?, last: Measurement?
        for (order, pick) in [("ASC", true), ("DESC", false)] {
            let rows = try db.query(Self.sourcesCTE + """
                SELECT s.source, m.start, m.utc_offset, m.value, m.flags FROM s,
                    LATERAL (SELECT * FROM measurement_rows m WHERE m.series = s.series
                             AND m.flags & \(Self.grid) = 0 AND m.start >= \(PlausibleTime.earliest) AND m.start < \(PlausibleTime.latest)
                             ORDER BY m.start \(order) LIMIT 1) m
                 WHERE s.flags & \(Self.grid) = 0 ORDER BY s.source
                """, [subject, metric])
            // Sources in name order; a tie keeps the first, as ChartQueries does.
            for r in 0..<rows.count {
                let m = Measurement(subject: Symbol(subject), metric: Symbol(metric), source: Symbol(rows.text(r, 0) ?? ""),
                                    start: rows.int(r, 1), utcOffset: Int32(truncatingIfNeeded: rows.int(r, 2)), value: rows.double(r, 3),
                                    unit: CanonicalUnits.glucose, flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: rows.int(r, 4))))
                if pick { if first.map({ m.start < $0.start }) ?? true { first = m } } else if last.map({ m.start > $0.start }) ?? true { last = m }
            }
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    public func events(subject: String, fromUTC: Int64, toUTC: Int64, episodeLookbackDays: Int64) throws -> [Event] {
        let columns = PostgresSource.eventColumns
        let rows = try db.query("""
            SELECT * FROM (
                SELECT \(columns) FROM events WHERE subject = $1 AND start >= $2 AND start < $3
                UNION ALL
                SELECT \(columns) FROM events WHERE subject = $1 AND kind = 'episode' AND start >= $4 AND start < $2 AND "end" >= $2
            ) e ORDER BY start, kind, subtype, source, amount
            """, [subject, String(fromUTC), String(toUTC), String(fromUTC - episodeLookbackDays * 86_400)])
        return PostgresSource.events(from: rows, subject: subject)
    }

    public func dayLog(subject: String, fromDay: String, toDay: String) throws -> [DayLogRow] {
        let rows = try db.query("""
            SELECT day, metric, n, min, mean, max, hypo, hyper, exercise_min, stress, illness FROM daily_summaries
             WHERE subject = $1 AND day >= $2 AND day <= $3 ORDER BY day, metric
            """, [subject, fromDay, toDay])
        var out: [DayLogRow] = []
        for r in 0..<rows.count {
            guard let day = rows.text(r, 0).flatMap(CivilDate.days(fromISO:)) else { continue }
            if out.last?.day != day { out.append(DayLogRow(day: day)) }
            out[out.count - 1].add(metric: rows.text(r, 1) ?? "", n: Int(rows.int(r, 2)), min: rows.optionalDouble(r, 3),
                                   mean: rows.optionalDouble(r, 4), max: rows.optionalDouble(r, 5), hypo: rows.int(r, 6) != 0,
                                   hyper: rows.int(r, 7) != 0, exerciseMinutes: rows.double(r, 8), stress: rows.int(r, 9) != 0,
                                   illness: rows.int(r, 10) != 0)
        }
        let favourites = try db.query("SELECT day, note FROM favourites WHERE subject = $1 AND day >= $2 AND day <= $3",
                                      [subject, fromDay, toDay])
        out.markFavourites((0..<favourites.count).map { (favourites.text($0, 0), favourites.isNull($0, 1) ? nil : favourites.text($0, 1)) })
        return out
    }

    public func otherDailySummaries(subject: String, fromDay: String, toDay: String) throws -> [DailySummaryRow] {
        let rows = try db.query("""
            SELECT day, metric, unit, n, mean, min, max, total, total_sources FROM daily_summaries
             WHERE subject = $1 AND day BETWEEN $2 AND $3 AND metric != 'glucose' AND n > 0 ORDER BY day, metric
            """, [subject, fromDay, toDay])
        return (0..<rows.count).map { r in
            DailySummaryRow(day: rows.text(r, 0) ?? "", metric: rows.text(r, 1) ?? "", unit: rows.text(r, 2) ?? "", n: Int(rows.int(r, 3)),
                            mean: rows.optionalDouble(r, 4), min: rows.optionalDouble(r, 5), max: rows.optionalDouble(r, 6),
                            total: rows.optionalDouble(r, 7), totalSources: rows.isNull(r, 8) ? nil : rows.text(r, 8))
        }
    }

    public func lastOtherSummaryDay(subject: String) throws -> String? {
        let rows = try db.query("SELECT max(day) FROM daily_summaries WHERE subject = $1 AND metric != 'glucose' AND n > 0", [subject])
        return rows.count > 0 && !rows.isNull(0, 0) ? rows.text(0, 0) : nil
    }

    /// Every subject the store holds readings or events for, sorted (`PGSubjectWalk.all`).
    public func allSubjects() throws -> [String] { try PGSubjectWalk.all(db) }
}
