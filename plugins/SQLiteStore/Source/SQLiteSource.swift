import HealthPipeCore

/// Streams a HealthPipe database's measurements and events back into a pipeline, ordered by
/// subject, metric and time (several sources of one metric are merged by time). A subject's events
/// travel with its `events_with` metric (glucose), interleaved by time, so `predict` sees each meal
/// and dose before the readings after it; the rest follow the subject's last metric. Everything is
/// read in one read transaction: a consistent snapshot even while a sink rewrites the same file.
public final class SQLiteSource: Source {
    let path: String
    let batchSize: Int
    let eventsWith: String

    public init(path: String, batchSize: Int = 8192, eventsWith: String = "glucose") {
        self.path = path
        self.batchSize = batchSize
        self.eventsWith = eventsWith
    }

    public func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let db = try SQLiteConnection(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }

        var groups: [(subject: String, metric: String, sources: [String])] = []
        for g in try MeasurementGroups.all(db) {
            if let last = groups.last, last.subject == g.subject, last.metric == g.metric {
                groups[groups.count - 1].sources.append(g.source)
            } else {
                groups.append((g.subject, g.metric, [g.source]))
            }
        }
        var subjects = groups.map(\.subject)
        let eventSubjects = try db.prepare("SELECT DISTINCT subject FROM events ORDER BY subject")
        while try eventSubjects.step() { subjects.append(eventSubjects.text(0) ?? "") }
        subjects = Array(Set(subjects)).sorted()

        var batch = RecordBatch()
        batch.reserve(batchSize)
        func flush() throws {
            guard !batch.isEmpty else { return }
            context.progress.addRecords(Int64(batch.count))
            try emit(batch)
            batch = RecordBatch()
            batch.reserve(batchSize)
        }
        for subject in subjects {
            if context.shouldStop { break }
            let events = try EventCursor(db: db, subject: subject)
            let metrics = groups.filter { $0.subject == subject }
            let carrier = metrics.first { $0.metric == eventsWith } ?? metrics.last
            for group in metrics {
                let readings = try MergedMeasurements(db: db, subject: subject, metric: group.metric, sources: group.sources)
                let carriesEvents = group.metric == carrier?.metric
                while let m = try readings.next() {
                    if carriesEvents {
                        while let e = events.current, e.start <= m.start {
                            batch.events.append(e)
                            try events.advance()
                        }
                    }
                    batch.measurements.append(m)
                    if batch.measurements.count + batch.events.count >= batchSize {
                        try flush()
                        if context.shouldStop { return }
                    }
                }
            }
            while let e = events.current {
                batch.events.append(e)
                try events.advance()
                if batch.count >= batchSize { try flush() }
            }
        }
        try flush()
    }
}

struct SQLiteSourceOptions: Decodable {
    var path: String
    var batch_size: Int?
    var events_with: String?
}

/// The `sqlite-source` source as registered in BuiltinPlugins.
public let sqliteSourceComponent = ComponentDescriptor(
    name: "sqlite-source", role: .source, family: "SQLiteStore",
    summary: "Reads a HealthPipe SQLite database back: measurements ordered by subject, metric and time (sources of one "
        + "metric merged by time) with each subject's events interleaved by time into its glucose stream. Used by "
        + "`healthpipe reaggregate` and `healthpipe evaluate --db`.",
    options: [
        OptionDoc("path", "path", "the database to read (relative to the config's folder)"),
        OptionDoc("batch_size", "integer", default: "8192", "records per batch"),
        OptionDoc("events_with", "metric name", default: "glucose", "the metric whose readings a subject's events are interleaved with"),
    ],
    produces: [.measurements, .events],
    build: { b in
        let o = try b.options(SQLiteSourceOptions.self)
        if let n = o.batch_size, n < 1 { throw b.error("batch_size must be at least 1", option: "batch_size") }
        return SQLiteSource(path: b.path(o.path), batchSize: o.batch_size ?? 8192, eventsWith: o.events_with ?? "glucose")
    })
