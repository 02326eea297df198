import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeStore
import SQLiteStore

/// Bytes that arrived some other way than as a file (an upload to `healthpipe serve`), imported
/// exactly as `healthpipe import --format FORMAT` imports a file into a SQLite store: the same
/// pipeline (`ImportPipeline`: source → the database's derivation steps → sqlite), the same
/// quarantine beside the database, the same derived-data refresh (`RunExecution.run`), the same
/// subject rule. Nothing is printed; the caller gets the run's report and the rejected rows.
public enum UploadImport {
    public struct Outcome: Sendable {
        /// Records the source read and the sink stored (counted as the import counts them).
        public var measurements: Int64
        public var events: Int64
        /// Rows put in the quarantine by this run, with their line in the uploaded bytes.
        public var rejected: [RowError]
        public var warnings: [String]
    }

    /// Why nothing was imported: a mistake in what was asked (`configuration`) or a failed run.
    public enum Failure: Error, CustomStringConvertible {
        case configuration(String)
        case failed(String)

        public var description: String {
            switch self {
            case .configuration(let m), .failed(let m): return m
            }
        }
    }

    /// Imports `bytes` with the source `format` into the SQLite store at `database` (created as
    /// `import` creates it), under `name` (the `imports` row and the quarantine's `file`). Blocks:
    /// call it off the event loops, one at a time per database.
    public static func run(_ bytes: [UInt8], name: String, format: String, database: String,
                           subject: String?, timezone: String?) throws -> Outcome {
        do { try SQLiteSink.checkDatabasePath(database) } catch { throw Failure.configuration("\(error)") }
        let registry = try BuiltinPlugins.builtInRegistry()
        let who = try Self.subject(subject, database: database)
        let settings = RunSettings(timezone: EditRefresh.zoneNow(of: who, in: HealthStores.at(database), defaultZone: timezone), subject: who,
                                   baseDirectory: (database as NSString).deletingLastPathComponent)
        let quarantine = DefaultQuarantine.beside(database: database, workingDirectory: settings.baseDirectory)
        let graph: PipelineGraph
        do {
            let derivation = try ImportPipeline.settings(db: database, preset: nil, registry: registry, run: settings)
            let draft = ImportPipeline.draft(inputs: [ImportInput(path: name, shown: name, type: format)], db: database,
                                             derivation: derivation, onError: .quarantine, ndjson: nil, preset: nil)
            graph = try PipelineGraph.build(spec: draft.spec(), registry: registry, settings: settings, defaultQuarantine: quarantine)
            if let problem = GraphRunner.outputProblem(of: graph) { throw Failure.failed(problem) }
            try StoreDerivation.prepare(graph, registry: registry, run: settings, trustStream: true)
        } catch let e as Failure { throw e } catch let e as ConfigError {
            throw Failure.configuration(e.description)
        } catch let e as ConfigErrors {
            throw Failure.configuration(e.description)
        }
        let quarantinedBefore = fileSize(quarantine)
        ByteInput.provide(bytes, as: name)
        let report = RunExecution.run(graph, registry: registry, settings: settings, quarantine: quarantine)
        guard report.outcome == .completed else { throw Failure.failed(report.error ?? "the import was \(report.outcome.rawValue)") }
        let input = report.inputs.first { $0.path == name }
        return Outcome(measurements: input?.measurements ?? 0, events: input?.events ?? 0,
                       rejected: rejectedRows(in: quarantine, after: quarantinedBefore, file: name),
                       warnings: report.stages.flatMap(\.warnings))
    }

    /// The subject rule of the commands: the one asked for, else the store's only subject,
    /// `default` for a new store; several subjects are a `configuration` failure.
    public static func subject(_ explicit: String?, database: String) throws -> String {
        if let explicit { return explicit }
        guard FileManager.default.fileExists(atPath: database) else { return SubjectRule.newStore }
        let subjects = (try? SQLiteHealthStore(path: database).allSubjects()) ?? []
        guard let subject = SubjectRule.implied(by: subjects) else {
            throw Failure.configuration("the database holds several subjects (\(SubjectRule.listed(subjects))): "
                                        + "start the server with --subject")
        }
        return subject
    }

    /// Brings the derived rows of the days an edit outside an import made pending up to date (an
    /// uploaded treatment that replaced another: `TreatmentReplacement`), as `entries delete` does
    /// (`EditRefresh`: the person's zone, `timezone` the default).
    public static func refresh(database: String, subject: String?, timezone: String?) throws {
        let baseDirectory = (database as NSString).deletingLastPathComponent
        let report = try EditRefresh.run(db: database, subject: try Self.subject(subject, database: database), defaultZone: timezone,
                                         registry: try BuiltinPlugins.builtInRegistry(), baseDirectory: baseDirectory,
                                         quarantine: DefaultQuarantine.beside(database: database, workingDirectory: baseDirectory))
        if let report, report.outcome != .completed { throw Failure.failed(report.error ?? "the refresh was \(report.outcome.rawValue)") }
    }

    private static func fileSize(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The quarantine lines this run appended for `file` (the quarantine only grows, and uploads
    /// to one database run one at a time).
    private static func rejectedRows(in path: String, after offset: UInt64, file: String) -> [RowError] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd() else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let row = try? JSONSerialization.jsonObject(with: line) as? [String: Any], row["file"] as? String == file else { return nil }
            return RowError(file: file, line: (row["line"] as? NSNumber)?.int64Value ?? 0,
                            reason: row["reason"] as? String ?? "", raw: row["raw"] as? String ?? "")
        }
    }
}
