import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeStore

/// `healthpipe alerts set`: changes the stored `reports:` settings (reminder, thresholds) and nothing
/// else — what `reaggregate --config` would store with that section changed — and recomputes only the
/// alerts and daily summary reports that follow them (`StoreDerivation.replaceReportSettings`).
struct AlertsSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change the stored report reminder and thresholds; recomputes the report alerts only.",
        discussion: """
        Changes the `reports:` part of the database's settings as a settings file would (the same checks and \
        messages) and keeps every other setting. Thresholds are removed (--remove-threshold, --clear-thresholds) \
        before new ones are added, so replacing one is:

          healthpipe alerts set --db health.sqlite
            --remove-threshold "body_temperature above"
            --threshold "body_temperature above 37.8 days=3 importance=4"
        """)

    @OptionGroup var store: StoreOptions
    @Option(help: "A report is expected every day by this local time (HH:MM), or off.") var reminder: String?
    @Option(name: .customLong("threshold"), help: ArgumentHelp("Watch an average: \(ThresholdText.shape) (days default 7, importance 4).",
                                                               valueName: "threshold"))
    var thresholds: [String] = []
    @Option(name: .customLong("remove-threshold"), help: ArgumentHelp("Stop watching one: metric above|below.", valueName: "threshold"))
    var removals: [String] = []
    @Flag(name: .customLong("clear-thresholds"), help: "Remove every stored threshold (before --threshold adds).")
    var clearThresholds = false

    func run() throws {
        let path = try store.location.existingPathForUsage()
        guard reminder != nil || !thresholds.isEmpty || !removals.isEmpty || clearThresholds else {
            throw usage("nothing to change: give --reminder, --threshold, --remove-threshold or --clear-thresholds")
        }
        let edit = ReportOptionsEdit(reminder: reminder, clearThresholds: clearThresholds,
                                     removals: try removals.map(ThresholdText.identity), additions: try thresholds.map(ThresholdText.node))
        let registry: ComponentRegistry
        do { registry = try BuiltinPlugins.builtInRegistry() } catch { throw configFailure(error) }
        let cwd = FileManager.default.currentDirectoryPath
        let report: RunReport
        do {
            let current = try StoreDerivation.stored(path) ?? .importDefaults()
            let options = try edit.applied(to: current["reports"]?.options ?? PipelineDraft.mapping([]))
            // Errors name the flag the value came from, as a settings file's name its line.
            let doc = ConfigDocument(command: "healthpipe alerts set", root: options,
                                     flags: ["reports.reminder": "--reminder", "reports.thresholds": "--threshold"])
            let settings = DerivationSettings(steps: current.steps + [.init(name: "reports", options: options, document: doc)])
            report = try StoreDerivation.replaceReportSettings(HealthStores.at(path), with: settings, registry: registry,
                                                               run: RunSettings(baseDirectory: cwd),
                                                               quarantine: DefaultQuarantine.beside(database: path, workingDirectory: cwd))
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }
        guard report.outcome == .completed else {
            printError("alerts set on \(store.db) did not complete: \(report.error ?? report.outcome.rawValue)")
            throw ExitCode(1)
        }
        print(Self.describe(try ReportSettings.stored(path)), terminator: "")
    }

    /// The stored reminder and thresholds, one per line, as `alerts set` takes them.
    static func describe(_ s: ReportAlertSettings) -> String {
        var out = "reminder: \(s.reminderText ?? "off")\n"
        for t in s.thresholds {
            out += "threshold: \(t.metric.text) \(t.above ? "above" : "below") \(AlertsDue.number(t.limit))"
                + (t.unit.isEmpty ? "" : CanonicalUnits.shown(t.unit.text)) + " days=\(t.days) importance=\(t.minImportance)\n"
        }
        return s.thresholds.isEmpty ? out + "thresholds: none\n" : out
    }
}
