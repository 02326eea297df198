import ArgumentParser
import Foundation
import HealthPipeCore
import HealthPipeStore
import PostgresStore
import SQLiteStore
import Yams

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import export files into SQLite with the default pipeline (classify + daily summary).",
        discussion: """
        Each file's format is detected from its content, not its name. Re-importing the same files adds nothing.
        Bad rows are quarantined to <db>.quarantine.ndjson (file, line, reason, raw text); every valid row lands.
        Derived rows (bands, daily summaries, metric sets) follow the database's settings and equal what
        `healthpipe reaggregate` computes from the stored readings, whatever was imported before and in what order.
        Use --print-pipeline to see the pipeline this runs, as a starting point for `healthpipe run`.
        """)

    @Argument(help: "Export files to import.") var files: [String]
    @OptionGroup var store: StoreOptions
    @OptionGroup var shared: SharedOptions
    @OptionGroup var sharding: ShardOption
    @Option(help: "Band preset for a new database (an existing one keeps its own).") var preset: BandPresetName?
    @Option(help: "Force a source type instead of detecting it (see `healthpipe plugins`).") var format: String?
    @Option(name: .customLong("on-error"), help: "What to do with bad rows.") var onError: ErrorPolicy = .quarantine
    @Option(help: "Dead-letter file for bad rows (default: <db>.quarantine.ndjson).") var quarantine: String?
    @Option(help: "Also write every record as NDJSON to this file.") var ndjson: String?
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @Flag(help: "Print the summary only when something went wrong.") var quiet = false
    @Flag(name: .customLong("restore-deleted"),
          help: "Store again the rows deleted by hand (a Nightscout client's DELETE) that these files hold; by default they stay deleted.")
    var restoreDeleted = false
    @Flag(name: .customLong("print-pipeline"), help: "Print the pipeline this runs (as YAML for `healthpipe run`) and exit.")
    var printPipeline = false

    func run() throws {
        var detection: InputDetection.AdaptersWhenNeeded
        do { detection = try InputDetection.AdaptersWhenNeeded(shared: shared) } catch { throw configFailure(error) }
        let policy = onError
        let cwd = FileManager.default.currentDirectoryPath
        let expanded = ImportFolders.expand(self.files + ImportOperands.takenAside, base: cwd)
        let given = expanded.files
        var files = given
        if let shard = try sharding.parsed() {
            files = files.filter { shard.contains(id: Shard.id(path: $0, subject: shared.subject)) }
            ShardOption.note(shard, kept: files.count, of: given.count, what: "files")
            if files.isEmpty { return }
        }
        var inputs: [ImportInput] = []
        var unreadable = 0
        var unreadInFolders: [String] = []
        for folder in expanded.empty { printError("\(folder): a folder with no file to import"); unreadable += 1 }
        for file in files {
            let path = ComponentBuilder.resolve(file, base: cwd)
            let outcome: InputDetection.Outcome
            do { outcome = try detection.type(of: path, shown: file, forced: format) } catch { throw configFailure(error) }
            switch outcome {
            case .found(let type): inputs.append(ImportInput(path: path, shown: file, type: type))
            case .unreadable(_) where expanded.fromFolder.contains(file): unreadInFolders.append(file)
            case .unreadable(let message): printError(message); unreadable += 1
            case .unknownType(let message): throw configFailure(ConfigError(file: "healthpipe import", line: 0, column: 0, message: message))
            }
        }
        if !unreadInFolders.isEmpty { printError(ImportFolders.warning(unread: unreadInFolders)) }
        guard !inputs.isEmpty else { throw ExitCode(1) }
        let registry = detection.registry

        let postgres = store.location.isPostgres
        let dbPath = store.location.pathOrURL
        // The database's stored settings are read before the pipeline exists: a path that cannot be
        // a database (a directory, a device) is refused first, with the reason.
        if !postgres {
            do { try SQLiteSink.checkDatabasePath(dbPath) } catch {
                printError("error: \(error)")
                throw ExitCode(1)
            }
        }
        // Nothing is read (not even the database's settings) while an output names an input or the database.
        let quarantinePath = policy != .quarantine ? nil : quarantine.map { ComponentBuilder.resolve($0, base: cwd) }
            ?? DefaultQuarantine.beside(database: dbPath, workingDirectory: cwd)
        try refuseFileClash(inputs.map { FileRole(.input, $0.path, what: "input") }
            + (postgres ? [] : [FileRole(.store, dbPath, what: "database")])
            + [ndjson.map { FileRole(.output, ComponentBuilder.resolve($0, base: cwd), what: "NDJSON output") },
               report.map { FileRole(.output, ComponentBuilder.resolve($0, base: cwd), what: "report") },
               quarantinePath.map { FileRole(.output, $0, what: "quarantine file") }].compactMap { $0 })
        let subject = shared.subject ?? SubjectRule.newStore
        let runSettings = RunSettings(timezone: shared.timezone ?? Self.personZone(subject: subject, store: dbPath),
                                      subject: subject, baseDirectory: cwd, pluginPaths: shared.pluginPaths)
        let derivation: DerivationSettings
        do { derivation = try ImportPipeline.settings(db: dbPath, preset: preset?.name, registry: registry, run: runSettings) } catch let e as PGError {
            printError("\(e)")  // the store cannot be reached: a failure, not a configuration mistake
            throw ExitCode(1)
        } catch {
            throw configFailure(error)
        }
        let draft = ImportPipeline.draft(inputs: inputs, db: dbPath, derivation: derivation, onError: policy,
                                         ndjson: ndjson.map { ComponentBuilder.resolve($0, base: cwd) }, preset: preset?.name,
                                         restoreDeleted: restoreDeleted)
        if printPipeline { print(PostgresURL(postgres ? store.db : nil).redact(try draft.yaml()), terminator: ""); return }
        let defaultQuarantine = quarantine.map { ComponentBuilder.resolve($0, base: cwd) }
            ?? DefaultQuarantine.beside(database: dbPath, workingDirectory: cwd)
        do {
            try RunExecution.execute(spec: draft.spec(), registry: registry, settings: runSettings,
                                     defaultQuarantine: defaultQuarantine, reportPath: report, quiet: quiet, trustStream: true)
            try adoptZone(runSettings, store: dbPath)
        } catch let e as ExitCode where e.rawValue == 3 {
            try adoptZone(runSettings, store: dbPath)
            throw unreadable > 0 ? ExitCode(1) : e
        } catch let e as ExitCode where unreadable > 0 && e.rawValue != 2 {
            throw ExitCode(1)
        }
        if unreadable > 0 { throw ExitCode(1) }
    }
}

extension ImportCommand {
    /// Without `--timezone`, a file's times without an offset are read on the person's clock: the
    /// zone `healthpipe person` (or their first `import --timezone`) gave them. A person who has moved
    /// has several zones and a file does not say which its rows were written in, so then (and for a
    /// person without a zone) the file still needs `--timezone`. A store that cannot be read yet is
    /// left to the import's own checks, which say why.
    static func personZone(subject: String, store: String) -> String? {
        guard let periods = try? HealthStores.at(store).zonePeriods(subject: subject), periods.count == 1 else { return nil }
        return periods[0].zone
    }

    /// `--timezone` is the person's zone when they have none yet (`healthpipe person` changes it):
    /// their typed times, "now" and reminders then follow the zone their files were read in.
    func adoptZone(_ run: RunSettings, store: String) throws {
        guard let zone = run.timezone else { return }
        let health = HealthStores.at(store)
        do { try health.adoptZone(subject: run.subject, zone: zone, now: Int64(Date().timeIntervalSince1970)) } catch {
            printError("error: " + health.redact("\(error)"))
            throw ExitCode(1)
        }
    }
}

struct ImportInput {
    var path: String
    /// As the user wrote it, for messages.
    var shown: String
    var type: String
}

/// The built-in import pipeline: each file's source → classify → daily → sqlite (and NDJSON),
/// with the steps' options taken from the database's derivation settings, built as a value.
enum ImportPipeline {
    static let command = "healthpipe import"

    /// The database's settings; for a new database the import defaults with `--preset`. A preset
    /// other than the one an existing database classifies with is refused: its stored bands and
    /// summaries would follow two settings.
    static func settings(db: String, preset: String?, registry: ComponentRegistry, run: RunSettings) throws -> DerivationSettings {
        guard let stored = try StoreDerivation.stored(db) else {
            let defaults = DerivationSettings.importDefaults(preset: preset)
            _ = try StoreDerivation.rows(defaults, registry: registry, run: run)  // checks the preset
            return defaults
        }
        if let preset {
            let wanted = try StoreDerivation.rows(.importDefaults(preset: preset), registry: registry, run: run)
                .first { $0.step == "classify" }?.fingerprint
            let have = try StoreDerivation.rows(stored, registry: registry, run: run).first { $0.step == "classify" }?.fingerprint
            if wanted != have {
                throw ConfigError(file: command, line: 0, column: 0, message: "--preset \(preset): \(db) keeps its bands with other "
                    + "settings (\(have ?? "no classify step")); importing with another preset would mix two. Change the "
                    + "database's settings with `healthpipe reaggregate --db \(db) --config settings.yml` "
                    + "(classify: { preset: \(preset) }), or leave --preset out")
            }
        }
        return stored
    }

    static func draft(inputs: [ImportInput], db: String, derivation: DerivationSettings, onError: ErrorPolicy,
                      ndjson: String?, preset: String?, restoreDeleted: Bool = false) -> PipelineDraft {
        var p = PipelineDraft(command: command)
        var names: [String] = []
        for (i, input) in inputs.enumerated() {
            let name = "file\(i + 1)"
            p.add(.source, name, type: input.type, onError: onError, options: [("path", Node(input.path))])
            p.flags[name] = input.shown
            names.append(name)
        }
        var readings = names
        if let classify = derivation["classify"] {
            p.add(.transform, "bands", type: "classify", inputs: readings, options: classify.optionPairs, from: classify.document)
            if let preset { p.flags["bands.preset"] = "--preset \(preset)" }
            readings = ["bands"]
        }
        var outputs = readings
        if let daily = derivation["daily"] {
            p.add(.transform, "daily", type: "daily", inputs: readings, options: daily.optionPairs, from: daily.document)
            outputs.append("daily")
        }
        if PostgresURL.isURL(db) {
            p.add(.sink, "db", type: "postgres", inputs: outputs, options: [("url", Node(db))])
            p.flags["db"] = "--db \(PostgresURL(db).shown)"
        } else {
            p.add(.sink, "db", type: "sqlite", inputs: outputs,
                  options: [("path", Node(db))] + (restoreDeleted ? [("restore_deleted", PipelineDraft.bool(true))] : []))
            p.flags["db"] = "--db \(db)"
        }
        if let ndjson {
            p.add(.sink, "feed", type: "ndjson", inputs: outputs, options: [("path", Node(ndjson))])
            p.flags["feed"] = "--ndjson \(ndjson)"
        }
        return p
    }
}
