import HealthPipeCore

/// Streams a PostgreSQL store's readings and events back into a pipeline exactly as `sqlite-source`
/// does from SQLite — by subject, metric and time (sources of one metric merged by time, in name order
/// at one instant), each subject's events interleaved by time into its glucose readings — so
/// `reaggregate`, the refresh after an import and `evaluate` compute the same from either store.
/// Read in one REPEATABLE READ transaction (a consistent snapshot) through a server-side cursor.
public final class PostgresSource: Source {
    let url: PostgresURL
    let batchSize: Int
    let eventsWith: String
    /// Only these subjects (nil: all), from the options.
    public var subjects: [String]?
    /// Set by the command that builds a refresh: only the pending days (and what the steps read around them).
    public var pending: PostgresPendingDays?
    static let fetchRows = 20_000

    public init(url: PostgresURL, batchSize: Int = 8192, eventsWith: String = "glucose", subjects: [String]? = nil) {
        self.url = url
        self.batchSize = batchSize
        self.eventsWith = eventsWith
        self.subjects = subjects
    }

    public func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { try run(context: context, batches: $0) }
    }

    private func run(context: StageContext, batches emit: @escaping (RecordBatch) throws -> Void) throws {
        let db = try PostgresSchema.open(url)
        try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? db.execute("COMMIT") }
        let wanted = pending?.subjects ?? subjects
        let found = try wanted.map {
            let rows = try db.query("""
                SELECT s FROM unnest($1::text[]) s WHERE \(PGSeriesSQL.subjectHasReadings("s"))
                    OR EXISTS (SELECT 1 FROM events WHERE subject = s) ORDER BY s COLLATE "C"
                """, [PGArray.text($0)])
            return (0..<rows.count).map { rows.text($0, 0) ?? "" }
        } ?? PGSubjectWalk.all(db)
        var out = SourceBatches(size: batchSize, context: context, emit: emit)
        for subject in found {
            if context.shouldStop { break }
            // The carrier of the events: glucose, else the subject's last metric (as sqlite-source).
            let metrics = try db.query(PGSeriesSQL.subjectSeriesCTE + " SELECT DISTINCT metric FROM g ORDER BY 1", [subject])
            let names = (0..<metrics.count).compactMap { metrics.text($0, 0) }
            let carrier = (names.contains(eventsWith) ? eventsWith : names.last).map(Symbol.init)
            if let ranges = pending?.readRanges(subject) {
                for days in ranges where !context.shouldStop {
                    try read(db, subject, carrier: carrier, days: days, into: &out)
                }
            } else {
                try read(db, subject, carrier: carrier, days: nil, into: &out)
            }
        }
        try out.flush()
    }

    /// One subject's readings and events: all of them, or those of the local days `days` (as
    /// sqlite-source: with the episodes that began earlier and may last into them).
    private func read(_ db: PGConnection, _ subject: String, carrier: Symbol?, days: ClosedRange<Int64>?, into out: inout SourceBatches) throws {
        var events = try Self.events(db, subject: subject, days: days)[...]
        if let days {
            let utc = LocalDays.utcBounds(days)
            try db.query("DECLARE hp_readings NO SCROLL CURSOR FOR " + PGSeriesSQL.subjectSeriesCTE + """
                SELECT g.metric, g.source, m.start, m."end", m.utc_offset, m.value, m.unit, m.flags, m.band FROM g,
                    LATERAL (SELECT * FROM measurement_rows m WHERE m.series = g.series AND m.start BETWEEN $2 AND $3 OFFSET 0) m
                 WHERE m.flags & 128 = 0 AND m.start + m.utc_offset BETWEEN $4 AND $5 ORDER BY 1, 3, 2, 4
                """,
                [subject, String(utc.lowerBound), String(utc.upperBound), String(days.lowerBound * 86_400),
                 String((days.upperBound + 1) * 86_400 - 1)])
        } else {
            try db.query("DECLARE hp_readings NO SCROLL CURSOR FOR " + PGSeriesSQL.subjectSeriesCTE + """
                SELECT g.metric, g.source, m.start, m."end", m.utc_offset, m.value, m.unit, m.flags, m.band FROM g,
                    LATERAL (SELECT * FROM measurement_rows m WHERE m.series = g.series OFFSET 0) m
                 WHERE m.flags & 128 = 0 ORDER BY 1, 3, 2, 4
                """, [subject])
        }
        let subjectSymbol = Symbol(subject)
        var metricNames = SymbolColumn(), sources = SymbolColumn(), units = SymbolColumn(), bandNames = SymbolColumn()
        while true {
            let rows = try db.query("FETCH FORWARD \(Self.fetchRows) FROM hp_readings")
            if rows.count == 0 { break }
            for r in 0..<rows.count {
                let metric = metricNames.symbol(rows, r, 0)
                let m = Measurement(subject: subjectSymbol, metric: metric, source: sources.symbol(rows, r, 1),
                                    start: rows.int(r, 2), end: rows.int(r, 3), utcOffset: Int32(truncatingIfNeeded: rows.int(r, 4)),
                                    value: rows.double(r, 5), unit: units.symbol(rows, r, 6),
                                    flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: rows.int(r, 7))),
                                    band: rows.isNull(r, 8) ? .empty : bandNames.symbol(rows, r, 8))
                if metric == carrier {
                    while let e = events.first, e.start <= m.start { try out.add(e); events = events.dropFirst() }
                }
                try out.add(m)
            }
            if out.context.shouldStop { break }
        }
        try db.execute("CLOSE hp_readings")
        // Events after the carrier's last reading come after all the subject's readings (as sqlite-source).
        for e in events { try out.add(e) }
    }

    /// A subject's events in time order (a subject's events are few beside its readings): all of them, or
    /// those of the local days `days` and the episodes that began earlier and may last into them (open
    /// ones, and markers without an end: the rule of sqlite-source's `EventCursor`).
    static func events(_ db: PGConnection, subject: String, days: ClosedRange<Int64>? = nil) throws -> [Event] {
        let columns = eventColumns
        let rows: PGRows
        if let days {
            let utc = LocalDays.utcBounds(days)
            rows = try db.query("""
                SELECT * FROM (
                    SELECT \(columns) FROM events WHERE subject = $1 AND start BETWEEN $2 AND $3
                       AND (\(PGLocalDay.expression) BETWEEN $5 AND $6 OR kind = 'episode')
                    UNION ALL
                    SELECT \(columns) FROM events WHERE subject = $1 AND kind = 'episode' AND start < $2
                       AND ("end" >= $2 OR flags & \(RecordFlags.openEnded.rawValue) != 0 OR ("end" = start AND start >= $4))
                ) e ORDER BY start, kind, subtype, source, amount
                """, [subject, String(utc.lowerBound), String(utc.upperBound),
                      String(utc.lowerBound - EpisodeSpan.markerMaxDays * 86_400), String(days.lowerBound), String(days.upperBound)])
        } else {
            rows = try db.query("SELECT \(columns) FROM events WHERE subject = $1 ORDER BY start, kind, subtype, source, amount", [subject])
        }
        return events(from: rows, subject: subject)
    }

    /// What `events(from:)` reads, by position (`amount` last: the rows' order ends with it).
    static let eventColumns = PostgresDDL.names(StoreTables.eventFields + ["amount"])

    /// Events from rows of `eventColumns`.
    static func events(from rows: PGRows, subject: String) -> [Event] {
        let s = Symbol(subject)
        var texts = SymbolColumn()
        var out: [Event] = []
        out.reserveCapacity(rows.count)
        for r in 0..<rows.count {
            guard let kind = Event.Kind(rawValue: rows.text(r, 0) ?? "") else { continue }
            out.append(Event(subject: s, kind: kind, subtype: texts.symbol(rows, r, 1), source: texts.symbol(rows, r, 2),
                             start: rows.int(r, 3), end: rows.int(r, 4), utcOffset: Int32(truncatingIfNeeded: rows.int(r, 5)),
                             carbs: rows.optionalDouble(r, 6), protein: rows.optionalDouble(r, 7), fat: rows.optionalDouble(r, 8),
                             insulin: rows.optionalDouble(r, 9), intensity: rows.isNull(r, 10) ? .empty : texts.symbol(rows, r, 10),
                             note: rows.text(r, 11), flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: rows.int(r, 12)))))
        }
        return out
    }
}

/// Interns a text column's values, remembering the last few so a repeated name costs a compare.
struct SymbolColumn {
    private var last: [(bytes: [UInt8], symbol: Symbol)] = []

    mutating func symbol(_ rows: PGRows, _ r: Int, _ c: Int) -> Symbol {
        let b = rows.bytes(r, c)
        for entry in last where entry.bytes.count == b.count && entry.bytes.withUnsafeBytes({ $0.elementsEqual(b) }) {
            return entry.symbol
        }
        let s = Symbol(String(decoding: b, as: UTF8.self))
        if last.count >= 8 { last.removeFirst() }
        last.append((Array(b), s))
        return s
    }
}

/// The `postgres-source` source as registered in BuiltinPlugins.
public let postgresSourceComponent = ComponentDescriptor(
    name: "postgres-source", role: .source, family: "PostgresStore",
    summary: """
        Reads a HealthPipe PostgreSQL store back, as sqlite-source reads SQLite: readings by subject, metric and time, each \
        subject's events interleaved into its glucose stream. Used by `healthpipe reaggregate --db postgresql://…` and the \
        refresh after an import.
        """,
    options: [
        OptionDoc("url", "postgresql:// URL or key=value string", default: "the PG* variables", "the database"),
        OptionDoc("batch_size", "integer", default: "8192", "records per batch"),
        OptionDoc("events_with", "metric name", default: "glucose", "the metric whose readings a subject's events are interleaved with"),
        OptionDoc("subjects", "list of subject names", default: "all", "read only these subjects"),
    ],
    produces: [.measurements, .events],
    emitsTimeOrdered: true,
    build: { b in
        let batchSize = try b.count("batch_size", default: 8192)
        return PostgresSource(url: PostgresURL(try b.value("url")), batchSize: batchSize,
                              eventsWith: try b.value("events_with") ?? "glucose", subjects: try b.value("subjects"))
    })

/// Everything PostgresStore registers.
public enum PostgresStorePlugin {
    public static var components: [ComponentDescriptor] { [postgresSinkComponent, postgresSourceComponent] }
}
