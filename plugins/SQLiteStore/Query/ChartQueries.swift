import HealthPipeCore

/// The reads behind the chart views (`healthpipe chart`, `healthpipe page`): a subject's glucose and
/// events over a time range and its day-table rows. Every query is a seek on a primary key: a
/// series' sources are found one seek each (as `MeasurementGroups` does), then each source is
/// read as one range of (subject, metric, source, start) — never a scan of the whole table, so a
/// day of a ten-year database costs what a day of a new one does. Nothing here relies on `value`
/// or `end` being part of the key.
public final class ChartQueries: StoreReader {
    let db: SQLiteConnection
    public let path: String
    /// The database's schema version. A reader never migrates, so a database an older release wrote
    /// (that no import has migrated yet) is read as it is: each query asks only for what it has.
    let schemaVersion: Int32
    /// False in a database summarised before day totals (schema 12).
    private var hasTotals: Bool { schemaVersion >= SchemaV12.migration.version }
    private var sourceCache: [String: [String]] = [:]
    private var eventGroupCache: [String: [EventGroup]] = [:]

    struct EventGroup: Hashable { var kind: String, subtype: String, source: String }

    /// A SQLite file that no healthpipe has written to (no schema version).
    public struct NotAStore: Error, CustomStringConvertible {
        public var description: String { "not a HealthPipe database (it has no HealthPipe tables)" }
    }

    /// Opens an existing database read-only (a missing file is an error, never an empty store);
    /// refuses one written by a newer healthpipe, or by something else.
    public init(path: String) throws {
        db = try SQLiteConnection.open(path: path, readOnly: true)
        self.path = path
        try SQLiteSchema.migrator.checkSupported(db)
        schemaVersion = try Migrator.version(of: db)
        guard schemaVersion > 0 else { throw NotAStore() }
    }

    // MARK: Subjects and sources

    /// Subjects that have readings of `metric`, sorted (one seek per subject).
    public func subjects(metric: String) throws -> [String] {
        let has = try db.prepare("SELECT 1 FROM measurements WHERE subject = ?1 AND metric = ?2 LIMIT 1")
        return try SubjectWalk.subjects(of: "measurements", in: db) { subject in
            has.reset()
            try has.bindText(1, subject)
            try has.bindText(2, metric)
            return try has.step()
        }
    }

    /// The sources of a subject's `metric` that hold readings, in key order. A source whose first
    /// row is an interpolated grid value (the `resample` transform's) holds no readings and is left out.
    public func readingSources(subject: String, metric: String = "glucose") throws -> [String] {
        let key = subject + "\u{0}" + metric
        if let cached = sourceCache[key] { return cached }
        let next = try db.prepare("""
            SELECT source, flags FROM measurements WHERE subject = ?1 AND metric = ?2 AND source > ?3 ORDER BY source, start LIMIT 1
            """)
        let first = try db.prepare("""
            SELECT source, flags FROM measurements WHERE subject = ?1 AND metric = ?2 ORDER BY source, start LIMIT 1
            """)
        var out: [String] = []
        try first.bindText(1, subject)
        try first.bindText(2, metric)
        var found = try first.step() ? (first.text(0) ?? "", first.int(1)) : nil
        while let (source, flags) = found {
            if flags & Int64(RecordFlags.interpolated.rawValue) == 0 { out.append(source) }
            next.reset()
            try next.bindText(1, subject)
            try next.bindText(2, metric)
            try next.bindText(3, source)
            found = try next.step() ? (next.text(0) ?? "", next.int(1)) : nil
        }
        sourceCache[key] = out
        return out
    }

    // MARK: Readings

    /// Readings of a subject's `metric` with `fromUTC <= start < toUTC`, all sources merged in time
    /// order (grid values excluded).
    public func readings(subject: String, metric: String, fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        let s = try db.prepare("""
            SELECT start, "end", utc_offset, value, unit, flags, band FROM measurements
            WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start >= ?4 AND start < ?5
              AND \(DerivedTables.readingMeasurements)
            ORDER BY start
            """)
        let subjectSymbol = Symbol(subject), metricSymbol = Symbol(metric)
        var out: [Measurement] = []
        var unit = RepeatedSymbol(), band = RepeatedSymbol()
        let sources = try readingSources(subject: subject, metric: metric)
        for source in sources {
            let sourceSymbol = Symbol(source)
            try s.bindSeries(subject: subject, metric: metric, source: source, fromUTC: fromUTC, toUTC: toUTC)
            while try s.step() {
                out.append(Measurement(subject: subjectSymbol, metric: metricSymbol, source: sourceSymbol, start: s.int(0), end: s.int(1),
                                       utcOffset: Int32(truncatingIfNeeded: s.int(2)), value: s.double(3), unit: unit.read(s, 4),
                                       flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(5))), band: band.read(s, 6)))
            }
        }
        if sources.count > 1 {
            // Stable: readings at the same instant keep their source order.
            let order = out.indices.sorted { (out[$0].start, $0) < (out[$1].start, $1) }
            out = order.map { out[$0] }
        }
        return out
    }

    /// The first and the last reading of a subject's `metric` (one seek per source each way).
    /// Readings outside the plausible dates (stored before `RecordGate` existed) are not part of it.
    public func readingSpan(subject: String, metric: String) throws -> (first: Measurement, last: Measurement)? {
        var first: Measurement?, last: Measurement?
        for (order, pick) in [("ASC", true), ("DESC", false)] {
            let s = try db.prepare("""
                SELECT start, utc_offset, value, flags FROM measurements
                WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND \(DerivedTables.readingMeasurements)
                  AND start >= \(PlausibleTime.earliest) AND start < \(PlausibleTime.latest)
                ORDER BY start \(order) LIMIT 1
                """)
            for source in try readingSources(subject: subject, metric: metric) {
                s.reset()
                try s.bindText(1, subject)
                try s.bindText(2, metric)
                try s.bindText(3, source)
                guard try s.step() else { continue }
                let m = Measurement(subject: Symbol(subject), metric: Symbol(metric), source: Symbol(source), start: s.int(0),
                                    utcOffset: Int32(truncatingIfNeeded: s.int(1)), value: s.double(2), unit: CanonicalUnits.glucose,
                                    flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(3))))
                if pick { if first == nil || m.start < first!.start { first = m } } else if last == nil || m.start > last!.start { last = m }
            }
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    // MARK: Events

    /// The (kind, subtype, source) groups of a subject's events, one seek each.
    func eventGroups(subject: String) throws -> [EventGroup] {
        if let cached = eventGroupCache[subject] { return cached }
        let firstOf = try db.prepare("SELECT kind, subtype, source FROM events WHERE subject = ?1 ORDER BY kind, subtype, source LIMIT 1")
        let nextSource = try db.prepare("""
            SELECT source FROM events WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source > ?4 ORDER BY source LIMIT 1
            """)
        let nextSubtype = try db.prepare("""
            SELECT subtype, source FROM events WHERE subject = ?1 AND kind = ?2 AND subtype > ?3 ORDER BY subtype, source LIMIT 1
            """)
        let nextKind = try db.prepare("""
            SELECT kind, subtype, source FROM events WHERE subject = ?1 AND kind > ?2 ORDER BY kind, subtype, source LIMIT 1
            """)
        func t(_ s: Statement, _ c: Int32) -> String { s.text(c) ?? "" }
        var out: [EventGroup] = []
        try firstOf.bindText(1, subject)
        var found = try firstOf.step() ? EventGroup(kind: t(firstOf, 0), subtype: t(firstOf, 1), source: t(firstOf, 2)) : nil
        while let g = found {
            out.append(g)
            found = nil
            nextSource.reset()
            try nextSource.bindText(1, subject); try nextSource.bindText(2, g.kind); try nextSource.bindText(3, g.subtype)
            try nextSource.bindText(4, g.source)
            if try nextSource.step() { found = EventGroup(kind: g.kind, subtype: g.subtype, source: t(nextSource, 0)); continue }
            nextSubtype.reset()
            try nextSubtype.bindText(1, subject); try nextSubtype.bindText(2, g.kind); try nextSubtype.bindText(3, g.subtype)
            if try nextSubtype.step() { found = EventGroup(kind: g.kind, subtype: t(nextSubtype, 0), source: t(nextSubtype, 1)); continue }
            nextKind.reset()
            try nextKind.bindText(1, subject); try nextKind.bindText(2, g.kind)
            if try nextKind.step() { found = EventGroup(kind: t(nextKind, 0), subtype: t(nextKind, 1), source: t(nextKind, 2)) }
        }
        eventGroupCache[subject] = out
        return out
    }

    /// A subject's events with `fromUTC <= start < toUTC`, in time order. Episodes (illness,
    /// stress) that started up to `episodeLookbackDays` earlier and are still running are included.
    public func events(subject: String, fromUTC: Int64, toUTC: Int64, episodeLookbackDays: Int64) throws -> [Event] {
        let s = try db.prepare("""
            SELECT start, "end", utc_offset, carbs_g, protein_g, fat_g, insulin_u, intensity, note, flags FROM events
            WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start >= ?5 AND start < ?6 ORDER BY start
            """)
        let subjectSymbol = Symbol(subject)
        var out: [Event] = []
        for g in try eventGroups(subject: subject) {
            guard let kind = Event.Kind(rawValue: g.kind) else { continue }
            let isEpisode = kind == .episode
            s.reset()
            try s.bindText(1, subject)
            try s.bindText(2, g.kind)
            try s.bindText(3, g.subtype)
            try s.bindText(4, g.source)
            try s.bindInt(5, isEpisode ? fromUTC - episodeLookbackDays * 86_400 : fromUTC)
            try s.bindInt(6, toUTC)
            let subtype = Symbol(g.subtype), source = Symbol(g.source)
            while try s.step() {
                let start = s.int(0), end = s.int(1)
                if isEpisode && start < fromUTC && end < fromUTC { continue }
                func optional(_ c: Int32) -> Double? { s.isNull(c) ? nil : s.double(c) }
                out.append(Event(subject: subjectSymbol, kind: kind, subtype: subtype, source: source, start: start, end: end,
                                 utcOffset: Int32(truncatingIfNeeded: s.int(2)), carbs: optional(3), protein: optional(4),
                                 fat: optional(5), insulin: optional(6), intensity: s.text(7).map { Symbol($0) } ?? .empty,
                                 note: s.text(8), flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(9)))))
            }
        }
        let order = out.indices.sorted { (out[$0].start, $0) < (out[$1].start, $1) }
        return order.map { out[$0] }
    }

    // MARK: Day table

    /// Daily summaries other than glucose with values (steps, heart rate, sleep …) of local days
    /// `fromDay...toDay` (YYYY-MM-DD), one per (day, metric), in day order.
    public func otherDailySummaries(subject: String, fromDay: String, toDay: String)
        throws -> [DailySummaryRow] {
        let s = try db.prepare("""
            SELECT day, metric, unit, n, mean, min, max, \(hasTotals ? "total, total_sources" : "NULL, NULL") FROM daily_summaries
            WHERE subject = ?1 AND day BETWEEN ?2 AND ?3 AND metric != 'glucose' AND n > 0 ORDER BY day, metric
            """)
        try s.bindText(1, subject)
        try s.bindText(2, fromDay)
        try s.bindText(3, toDay)
        var out: [DailySummaryRow] = []
        while try s.step() {
            out.append(DailySummaryRow(day: s.text(0) ?? "", metric: s.text(1) ?? "", unit: s.text(2) ?? "", n: Int(s.int(3)),
                                       mean: s.isNull(4) ? nil : s.double(4), min: s.isNull(5) ? nil : s.double(5),
                                       max: s.isNull(6) ? nil : s.double(6), total: s.isNull(7) ? nil : s.double(7),
                                       totalSources: s.isNull(8) ? nil : s.text(8)))
        }
        return out
    }

    /// The last local day (YYYY-MM-DD) with a daily summary other than glucose; nil without one.
    public func lastOtherSummaryDay(subject: String) throws -> String? {
        let s = try db.prepare("SELECT max(day) FROM daily_summaries WHERE subject = ?1 AND metric != 'glucose' AND n > 0")
        try s.bindText(1, subject)
        return try s.step() ? s.text(0) : nil
    }

    /// The `day_log` rows of local days `fromDay...toDay` (YYYY-MM-DD), oldest first: a range of
    /// `daily_summaries`' key (subject, day, metric) and of `favourites`' (subject, day).
    /// The glucose rows alone: the key (subject, day, metric) finds them without visiting the day's other metrics.
    public func glucoseSummaries(subject: String, fromDay: String, toDay: String) throws -> [DailySummaryRow] {
        let s = try db.prepare("""
            SELECT day, unit, n, mean, min, max FROM daily_summaries
            WHERE subject = ?1 AND day >= ?2 AND day <= ?3 AND metric = 'glucose' AND n > 0 ORDER BY day
            """)
        try s.bindText(1, subject)
        try s.bindText(2, fromDay)
        try s.bindText(3, toDay)
        var rows: [DailySummaryRow] = []
        while try s.step() {
            rows.append(DailySummaryRow(day: s.text(0) ?? "", metric: "glucose", unit: s.text(1) ?? "", n: Int(s.int(2)),
                                        mean: s.isNull(3) ? nil : s.double(3), min: s.isNull(4) ? nil : s.double(4), max: s.isNull(5) ? nil : s.double(5)))
        }
        return rows
    }

    public func dayLog(subject: String, fromDay: String, toDay: String) throws -> [DayLogRow] {
        let s = try db.prepare("""
            SELECT day, metric, n, min, mean, max, hypo, hyper, exercise_min, stress, illness FROM daily_summaries
            WHERE subject = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day
            """)
        try s.bindText(1, subject)
        try s.bindText(2, fromDay)
        try s.bindText(3, toDay)
        var rows: [DayLogRow] = []
        while try s.step() {
            guard let day = s.text(0).flatMap(CivilDate.days(fromISO:)) else { continue }
            if rows.last?.day != day { rows.append(DayLogRow(day: day)) }
            rows[rows.count - 1].add(metric: s.text(1) ?? "", n: Int(s.int(2)), min: s.isNull(3) ? nil : s.double(3),
                                     mean: s.isNull(4) ? nil : s.double(4), max: s.isNull(5) ? nil : s.double(5),
                                     hypo: s.int(6) != 0, hyper: s.int(7) != 0, exerciseMinutes: s.double(8),
                                     stress: s.int(9) != 0, illness: s.int(10) != 0)
        }
        let f = try db.prepare("SELECT day, note FROM favourites WHERE subject = ?1 AND day >= ?2 AND day <= ?3")
        try f.bindText(1, subject)
        try f.bindText(2, fromDay)
        try f.bindText(3, toDay)
        var favourites: [(day: String?, note: String?)] = []
        while try f.step() { favourites.append((f.text(0), f.text(1))) }
        rows.markFavourites(favourites)
        return rows
    }
}

extension Statement {
    /// Resets and binds one series' time range: ?1 subject, ?2 metric, ?3 source, ?4 ≤ start < ?5.
    func bindSeries(subject: String, metric: String, source: String, fromUTC: Int64, toUTC: Int64) throws {
        reset()
        try bindText(1, subject)
        try bindText(2, metric)
        try bindText(3, source)
        try bindInt(4, fromUTC)
        try bindInt(5, toUTC)
    }
}
