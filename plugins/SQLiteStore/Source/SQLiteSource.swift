import HealthPipeCore

/// Streams a HealthPipe database's measurements and events back into a pipeline, ordered by
/// subject, metric and time (several sources of one metric are merged by time). A subject's events
/// travel with its `events_with` metric (glucose), interleaved by time, so `predict` sees each meal
/// and dose before the readings after it; the rest follow the subject's last metric. Everything is
/// read in one read transaction: a consistent snapshot even while a sink rewrites the same file.
/// With a pending `scope` it reads only what bringing the pending days up to date needs.
public final class SQLiteSource: Source {
    let path: String
    let batchSize: Int
    let eventsWith: String
    /// Only these subjects / metrics (nil: all); events are read whatever the metrics.
    let subjectFilter: Set<String>?
    let metricFilter: Set<String>?
    /// What to read; set by the command that builds a refresh.
    public var scope = RefreshScope.all

    public init(path: String, batchSize: Int = 8192, eventsWith: String = "glucose", subjects: [String]? = nil,
                metrics: [String]? = nil) {
        self.path = path
        self.batchSize = batchSize
        self.eventsWith = eventsWith
        subjectFilter = subjects.map(Set.init)
        metricFilter = metrics.map(Set.init)
    }

    public func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { try run(context: context, batches: $0) }
    }

    private func run(context: StageContext, batches emit: @escaping (RecordBatch) throws -> Void) throws {
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        if scope.reportsOnly { return try readReports(db, context: context, emit: emit) }

        var groups: [(subject: String, metric: String, sources: [String])] = []
        for g in try MeasurementGroups.all(db) where (metricFilter?.contains(g.metric) ?? true) {
            if let last = groups.last, last.subject == g.subject, last.metric == g.metric {
                groups[groups.count - 1].sources.append(g.source)
            } else {
                groups.append((g.subject, g.metric, [g.source]))
            }
        }
        // Sought subject by subject: SQLite answers SELECT DISTINCT by reading every event.
        var subjects = groups.map(\.subject) + (try SubjectWalk.subjects(of: "events", in: db))
        subjects = Array(Set(subjects)).filter { subjectFilter?.contains($0) ?? true }.sorted()
        let pending = scope.pendingOnly ? try PendingSet(db) : nil
        if let pending { subjects = subjects.filter { pending.days[$0] != nil } }

        var out = SourceBatches(size: batchSize, context: context, emit: emit)
        for subject in subjects {
            if context.shouldStop { break }
            let metrics = groups.filter { $0.subject == subject }
            try ReportCursor.read(db, subject: subject) { try out.add($0) }
            if let pending, !scope.wholeSubjects {
                for days in pending.ranges(subject, margin: scope.marginDays) {
                    try read(db, subject, metrics, days: days, into: &out)
                    if context.shouldStop { return }
                }
            } else {
                try read(db, subject, metrics, days: nil, into: &out)
            }
        }
        try out.flush()
    }

    /// Every subject's health reports and nothing else (`RefreshScope.reports`).
    private func readReports(_ db: SQLiteConnection, context: StageContext, emit: @escaping (RecordBatch) throws -> Void) throws {
        var out = SourceBatches(size: batchSize, context: context, emit: emit)
        let list = try db.prepare("SELECT DISTINCT subject FROM reports ORDER BY subject")
        var subjects: [String] = []
        while try list.step() { subjects.append(list.text(0) ?? "") }
        for subject in subjects where subjectFilter?.contains(subject) ?? true {
            if context.shouldStop { break }
            try ReportCursor.read(db, subject: subject) { try out.add($0) }
        }
        try out.flush()
    }

    /// One subject's readings and events, all of them or those of the local days `days`.
    private func read(_ db: SQLiteConnection, _ subject: String, _ metrics: [(subject: String, metric: String, sources: [String])],
                      days: ClosedRange<Int64>?, into out: inout SourceBatches) throws {
        let bounds = days.map(LocalDays.utcBounds)
        func inScope(_ start: Int64, _ offset: Int32) -> Bool {
            guard let days else { return true }
            return days.contains(LocalDays.day(start, offset))
        }
        let events = try EventCursor(db: db, subject: subject, bounds: bounds)
        func nextEvent() throws -> Event? {
            while let e = events.current {
                try events.advance()
                // Episodes that began before the days and last into them count on them too.
                if inScope(e.start, e.utcOffset) || e.kind == .episode { return e }
            }
            return nil
        }
        var event = try nextEvent()
        let carrier = metrics.first { $0.metric == eventsWith } ?? metrics.last
        for group in metrics {
            let readings = try MergedMeasurements(db: db, subject: subject, metric: group.metric, sources: group.sources,
                                                  bounds: bounds ?? Int64.min...Int64.max)
            let carriesEvents = group.metric == carrier?.metric
            while let m = try readings.next() {
                guard inScope(m.start, m.utcOffset) else { continue }
                if carriesEvents {
                    while let e = event, e.start <= m.start {
                        try out.add(e)
                        event = try nextEvent()
                    }
                }
                try out.add(m)
                if out.context.shouldStop { return }
            }
        }
        while let e = event {
            try out.add(e)
            event = try nextEvent()
        }
    }
}

/// The `sqlite-source` source as registered in BuiltinPlugins.
public let sqliteSourceComponent = ComponentDescriptor(
    name: "sqlite-source", role: .source, family: "SQLiteStore",
    summary: """
        Reads a HealthPipe SQLite database back: measurements ordered by subject, metric and time (sources of one \
        metric merged by time) with each subject's events interleaved by time into its glucose stream, and its health \
        reports. Used by \
        `healthpipe reaggregate`, the refresh after an import, and `healthpipe evaluate --db`.
        """,
    options: [
        OptionDoc("path", "path", required: true, "the database to read (relative to the config's folder)"),
        OptionDoc("batch_size", "integer", default: "8192", "records per batch"),
        OptionDoc("events_with", "metric name", default: "glucose", "the metric whose readings a subject's events are interleaved with"),
        OptionDoc("subjects", "list of subject names", default: "all", "read only these subjects"),
        OptionDoc("metrics", "list of metric names", default: "all", "read only these metrics' readings (events are always read)"),
    ],
    produces: [.measurements, .events, .reports],
    emitsTimeOrdered: true,
    build: { b in
        let batchSize = try b.count("batch_size", default: 8192)
        return SQLiteSource(path: b.path(try b.required("path")), batchSize: batchSize,
                            eventsWith: try b.value("events_with") ?? "glucose", subjects: try b.value("subjects"),
                            metrics: try b.value("metrics"))
    })
