import Foundation
import HealthPipeCore

/// Writes measurements, events and daily summaries into a HealthPipe SQLite database (schema in
/// docs/schema.md). Upserts on natural keys, so re-running an import is safe and adds nothing.
public final class SQLiteSink: Sink, OutputChecking {
    public struct Options: Decodable, Sendable {
        /// Database file; parent folders are created.
        public var path: String
        /// Rows per transaction.
        public var batchRows: Int?
        /// Re-aggregation: rewrite only derived tables and bands, all in one transaction.
        public var replaceDerived: Bool?
        /// Rows deleted by hand that this import brings again are stored again (`import --restore-deleted`).
        public var restoreDeleted: Bool?

        enum CodingKeys: String, CodingKey {
            case path
            case batchRows = "batch_rows"
            case replaceDerived = "replace_derived"
            case restoreDeleted = "restore_deleted"
        }
    }

    public static let defaultBatchRows = 100_000

    public let path: String
    public let batchRows: Int
    public let replaceDerived: Bool
    public let restoreDeleted: Bool
    /// Derivation steps upstream of this sink that follow the database's settings and see exactly
    /// the readings it stores (set by the command that built the pipeline): their daily summaries
    /// and day metric sets are stored directly for days nothing else wrote to.
    public var trustedSteps: Set<String> = []
    /// In `replace_derived` mode: which derived rows to replace, and the settings they follow
    /// (stored with them); set by the command that builds the re-aggregation.
    public var refreshScope = RefreshScope.all
    public var settingsToStore: [DerivationSettingsTable.Row]?
    private var session: SinkSession?
    private var rewrite: DerivedRewriteSession?

    public init(path: String, batchRows: Int = SQLiteSink.defaultBatchRows, replaceDerived: Bool = false, restoreDeleted: Bool = false) {
        self.path = path
        self.batchRows = max(1, batchRows)
        self.replaceDerived = replaceDerived
        self.restoreDeleted = restoreDeleted
    }

    /// A directory, device or unwritable place is refused before the run reads anything.
    public func checkOutputs() throws { try Self.checkDatabasePath(path) }

    public var fileRoles: [FileRole] {
        path == ":memory:" || path.hasPrefix("file:") ? [] : [FileRole(.store, path, what: "database")]
    }

    /// The check a database path gets before anything opens it (in-memory and URI names pass).
    public static func checkDatabasePath(_ path: String) throws {
        guard path != ":memory:", !path.hasPrefix("file:"), !path.isEmpty else { return }
        _ = try OutputPath.check(path, what: "database")
    }

    public func open(run: RunInfo, context: StageContext) throws {
        try namingPath {
            try Self.createParentDirectory(of: path)
            if replaceDerived {
                rewrite = try DerivedRewriteSession(path: path, scope: refreshScope, settings: settingsToStore)
            } else {
                session = try SinkSession(path: path, batchRows: batchRows, run: run, trustedSteps: trustedSteps, restoreDeleted: restoreDeleted)
            }
        }
    }

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        if let rewrite { return try namingPath { try rewrite.write(batch) } }
        guard let session else { throw SQLiteError(code: 21, message: "sqlite sink written before open (\(path))") }
        let keptBefore = session.keptDeleted
        try namingPath { try session.write(batch) }
        // Not stored, and said so: rows a client deleted stay deleted when a file brings them again.
        let kept = session.keptDeleted - keptBefore
        if kept > 0 {
            context.warn("\(kept) row\(kept == 1 ? "" : "s") deleted before (a Nightscout client's DELETE) kept deleted; "
                         + "import --restore-deleted stores \(kept == 1 ? "it" : "them") again")
        }
    }

    /// SQLite's messages ("attempt to write a readonly database") say which database.
    private func namingPath<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch var e as SQLiteError {
            if e.path == nil { e.path = path }
            throw e
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        if let rewrite {
            defer { self.rewrite = nil }
            return try namingPath { try rewrite.finish(outcome: outcome) }
        }
        // open may have failed: nothing to commit then.
        guard let session else { return }
        // Releasing the session finalizes the statements and closes the file (checkpointing the WAL).
        defer { self.session = nil }
        try namingPath { try session.finish(outcome: outcome, report: report, finishedAt: Int64(Date().timeIntervalSince1970)) }
    }

    static func createParentDirectory(of path: String) throws {
        guard path != ":memory:", !path.hasPrefix("file:"), !path.isEmpty else { return }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    }
}
