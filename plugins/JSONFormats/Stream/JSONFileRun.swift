import HealthPipeCore

/// The bookkeeping every JSON source shares (as CSVFileRun does for CSV): register the file for the
/// run report and imports log, feed progress, turn a document's rejection into the stage's error
/// policy with its line and JSON path, batch the records, record counts and the content hash.
package struct JSONFileRun {
    let path: String
    let format: String
    let context: StageContext
    /// A file that is one object whose records are one array member's elements (Google Fit's All Data),
    /// and what gets the members written before that array.
    let envelope: JSONEnvelope?
    let member: (String, String) throws -> Void

    package init(path: String, format: String, context: StageContext, envelope: JSONEnvelope? = nil,
                 member: @escaping (String, String) throws -> Void = { _, _ in }) {
        self.path = path
        self.format = format
        self.context = context
        self.envelope = envelope
        self.member = member
    }

    /// Reason a document is rejected; `at` is the JSON path of the offending value, when known.
    package struct Reject: RowRejection {
        var reason: String
        var at: String?
        package init(_ reason: String, at: String? = nil) {
            self.reason = reason
            self.at = at
        }
    }

    /// Thrown inside the document loop when the user asked to stop.
    struct Stop: Error {}

    /// Every JSON source accounts for every document (docs/reliability.md, "Every row accounted for"):
    /// `type` gives the document's slot in `tally` from its keys, before anything can reject it;
    /// `handle` says whether the document was stored or skipped (a known non-data type, a repeat); a
    /// rejected one counts as quarantined under its type, one the reader could not parse under no type.
    /// The file's counts go to the run report (`StageContext.finishRows`). `finish` adds what a source
    /// held back until the whole file was read (records that need a later document).
    package func run(table: JSONPathTable, emit: (RecordBatch) throws -> Void, finish: ((inout RecordBatcher) throws -> Void)? = nil,
                     tally: RowTally, type: (JSONDocument, inout RowTally) -> Int,
                     handle: (JSONDocument, inout RecordBatcher) throws -> RowTally.Outcome) throws {
        var tally = tally
        let reader = try JSONDocumentReader(path: path, table: table, envelope: envelope)
        let index = context.registerInput(InputFileInfo(path: path, format: format, size: reader.size))
        context.progress.addExpected(reader.size)
        var out = RecordBatcher()
        var documents: Int64 = 0, rejected: Int64 = 0
        defer {
            context.finishInput(index, rows: documents, measurements: out.measurements, events: out.events,
                                rejected: rejected, hash: reader.contentHash)
            context.finishRows(index, tally)
        }
        do {
            try reader.forEach(progress: { context.progress.advance(Int64($0)) }, { doc in
                documents += 1
                let slot = type(doc, &tally)
                do {
                    try tally.account(slot, Result { () throws -> RowTally.Outcome? in try handle(doc, &out) })
                } catch let r as Reject {
                    rejected += 1
                    try context.reject(RowError(file: path, line: doc.line,
                                                reason: r.at.map { "\($0): \(r.reason)" } ?? "\(doc.path(of: nil)): \(r.reason)",
                                                raw: doc.rawText()))
                }
                if out.isEmpty, context.shouldStop { throw Stop() }
                try out.flushIfFull(emit)
            }, problem: { p in
                documents += 1
                rejected += 1
                tally.count(tally.untyped, .quarantined)
                try context.reject(RowError(file: path, line: p.line, reason: p.reason, raw: p.raw))
            }, member: member)
        } catch is Stop {}
        try finish?(&out)
        try out.flush(emit)
    }
}

/// Collects records into batches and hands each full batch on (records move in thousands, never one by one).
package struct RecordBatcher {
    private(set) var batch = RecordBatch()
    let limit: Int
    package private(set) var measurements: Int64 = 0
    package private(set) var events: Int64 = 0
    /// Counts flushes, so a position in the current batch can be told from one in a batch already sent.
    private(set) var generation = 0

    package init(limit: Int = 4096) {
        self.limit = limit
        batch.reserve(limit)
    }

    var isEmpty: Bool { batch.isEmpty }

    package mutating func add(_ m: HealthPipeCore.Measurement) {
        batch.measurements.append(m)
        measurements += 1
    }

    /// Where the next measurement goes: (generation, index in the batch).
    var nextMeasurementPosition: (generation: Int, index: Int) { (generation, batch.measurements.count) }

    /// Replaces a measurement still in the current batch; false when that batch was already sent.
    mutating func replace(at position: (generation: Int, index: Int), with m: HealthPipeCore.Measurement) -> Bool {
        guard position.generation == generation, position.index < batch.measurements.count else { return false }
        batch.measurements[position.index] = m
        return true
    }

    package mutating func add(_ e: Event) {
        batch.events.append(e)
        events += 1
    }

    /// A workout's route (a FIT activity's positions).
    package mutating func add(_ r: WorkoutRoute) { batch.routes.append(r) }

    mutating func add(_ p: SubjectProfile) { batch.profiles.append(p) }

    // Derived records, read back from HealthPipe's own NDJSON (`ndjson-source`).
    mutating func addDaily(_ d: DailySummary) { batch.dailySummaries.append(d) }
    mutating func addMetrics(_ m: MetricSet) { batch.metricSets.append(m) }
    mutating func addForecast(_ f: ForecastPoint) { batch.forecasts.append(f) }
    mutating func addAlert(_ a: Alert) { batch.alerts.append(a) }

    /// A health report with its values as readings.
    mutating func add(_ r: HealthReport) {
        batch.reports.append(r)
        for m in r.measurements { add(m) }
    }

    /// A manual entry with its event.
    mutating func add(_ entry: ManualEntry) {
        batch.entries.append(entry)
        add(entry.event)
    }

    package mutating func flushIfFull(_ emit: (RecordBatch) throws -> Void) throws {
        if batch.count >= limit { try flush(emit) }
    }

    package mutating func flush(_ emit: (RecordBatch) throws -> Void) throws {
        guard !batch.isEmpty else { return }
        let full = batch
        batch.removeAll()
        generation += 1
        try emit(full)
    }
}
