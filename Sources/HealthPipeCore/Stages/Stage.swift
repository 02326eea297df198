/// A stage instance. Each runs on its own thread and is touched only by that thread, so stages keep
/// plain mutable state; the engine moves batches between them through bounded queues.
public protocol Stage: AnyObject {}

/// Produces batches: reads a file, a device, a database.
public protocol Source: Stage {
    /// Reads everything and hands it to `emit` in batches. Checks `context.shouldStop` between
    /// batches; bad rows go to `context.reject`, which applies the stage's error policy.
    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws
}

/// Turns batches into batches: classify, aggregate, predict.
public protocol Transform: Stage {
    func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws
    /// Called once after the last input batch, for aggregates that can only be emitted at the end.
    func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws
}

extension Transform {
    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {}
}

/// Writes batches somewhere: SQLite, NDJSON.
public protocol Sink: Stage {
    func open(run: RunInfo, context: StageContext) throws
    func write(_ batch: RecordBatch, context: StageContext) throws
    /// Commits what it has; `outcome` says whether the run completed. Called even after a failure
    /// elsewhere, so committed work stays consistent.
    func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws
}

/// What sinks know about the run they belong to.
public struct RunInfo: Sendable {
    public var id: String
    public var startedAt: Int64
    public var inputPaths: [String]
    public init(id: String, startedAt: Int64, inputPaths: [String]) {
        self.id = id
        self.startedAt = startedAt
        self.inputPaths = inputPaths
    }
}

public enum RunOutcome: String, Sendable {
    case completed, interrupted, failed

    /// The status an imports log (SQLite, PostgreSQL) records for the files of a run that ended so.
    public var importStatus: String {
        switch self {
        case .completed: "complete"
        case .interrupted: "interrupted"
        case .failed: "failed"
        }
    }
}

/// A stage's reaction to a bad row.
public enum ErrorPolicy: String, Sendable, Decodable, CaseIterable {
    /// Stop the run (exit 1). Rows already committed stay committed.
    case fail
    /// Count the row and go on.
    case skip
    /// Write the row to the dead-letter NDJSON file with file, line, reason and raw text, and go on.
    case quarantine
}
