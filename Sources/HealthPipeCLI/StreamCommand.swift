import ArgumentParser
import Foundation
import HealthPipeCore

struct StreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Read an accelerometer stream (serial device, BLE bridge pty, or a recorded capture), show the live "
            + "accomplishment bar and store each finished session in SQLite.",
        discussion: """
        Examples:
          healthpipe stream --device /dev/ttyACM0 --db brushing.sqlite
          healthpipe stream --device /tmp/ttyBLE --reconnect --db brushing.sqlite
          healthpipe stream --replay capture.csv --start 2026-01-05T07:30:00Z --db brushing.sqlite
        Streams without a time column are stamped from --rate (see docs/motion.md).
        Bad bytes are quarantined to <db>.quarantine.ndjson; they never stop the stream.
        Ctrl-C ends a live stream normally (exit 0): the open session is stored if it has enough activity.
        """)

    @OptionGroup var input: StreamInputOptions
    @OptionGroup var rules: StreamSessionOptions
    @OptionGroup var store: OptionalStoreOptions
    @Option(help: "Also write the history chart JSON (week of the newest session) to this file.") var chart: String?
    @OptionGroup var shared: SharedOptions
    @Option(name: .customLong("on-error"), help: "What to do with bad input.") var onError: ErrorPolicy = .quarantine
    @Option(help: "Dead-letter file for bad input (default: <db>.quarantine.ndjson).") var quarantine: String?
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @Flag(help: "Print the summary only when something went wrong.") var quiet = false
    @Flag(name: .customLong("print-pipeline"), help: "Print the generated pipeline YAML and exit.") var printPipeline = false

    func validate() throws {
        if (input.device == nil) == (input.replay == nil) { throw ValidationError("give exactly one of --device or --replay") }
    }

    func run() throws {
        let cwd = FileManager.default.currentDirectoryPath
        func abs(_ p: String) -> String { ComponentBuilder.resolve(p, base: cwd) }
        let dbPath = store.location?.path
        let draft = StreamPipeline.draft(input: input, rules: rules, db: dbPath, chart: chart.map(abs), onError: onError)
        if printPipeline { print(try draft.yaml(), terminator: ""); return }
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let defaultQuarantine = quarantine.map(abs)
            ?? dbPath.map { DefaultQuarantine.beside(database: $0) }
            ?? abs("stream.quarantine.ndjson")
        let settings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore, baseDirectory: cwd,
                                   pluginPaths: shared.pluginPaths)
        try RunExecution.execute(spec: draft.spec(), registry: registry, settings: settings,
                                 defaultQuarantine: defaultQuarantine, reportPath: report, quiet: quiet, showProgress: false,
                                 stopEndsNormally: true)
    }
}
