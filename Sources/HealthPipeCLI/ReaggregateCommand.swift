import ArgumentParser
import Foundation
import HealthPipeCore

struct ReaggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reaggregate",
        abstract: "Recompute bands, daily summaries, forecasts and alerts from the readings stored in a database.",
        discussion: """
        Streams the stored measurements and events (the sqlite-source) through classify, daily, predict and alerts
        (and resample when the settings name it) and replaces only derived data — measurement bands, the resampled
        grid, daily_summaries, daily_bands, glucose_metrics, glucose_agp, forecasts, alerts — in ONE
        transaction. Imported rows and user tables (favourites) are never touched; an interrupted or killed run leaves
        the previous derived data as it was. --config settings.yml chooses each step's options (docs/prediction.md):

          resample: { step_minutes: 5, max_gap_minutes: 45 }   # opt-in: stores the grid (source 'resampled')
          classify: { preset: consensus }
          daily: { hypo_below: 70, hyper_above: 180, unit: mg/dL }
          predict: { model: ridge, horizon: 30m, issue: latest }
          alerts: { low: 70, high: 250, model: ridge }

        A step set to false is skipped.
        """)

    @Option(help: "The HealthPipe database to re-aggregate.") var db: String
    @Option(help: "Settings file (YAML) choosing presets, thresholds and models.") var config: String?
    @Flag(name: .customLong("print-pipeline"), help: "Print the pipeline this runs and exit.") var printPipeline = false
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let dbPath = ComponentBuilder.resolve(db, base: cwd)
        guard FileManager.default.fileExists(atPath: dbPath) else {
            printError("\(db): no such database")
            throw ExitCode(1)
        }
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let runSettings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? "default", baseDirectory: cwd,
                                      pluginPaths: shared.pluginPaths)
        let yaml: String
        do {
            let settings = try ReaggregateSettings.load(path: config.map { ComponentBuilder.resolve($0, base: cwd) })
            try settings.validate(registry: registry, run: runSettings)
            yaml = try settings.pipelineYAML(db: dbPath)
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }
        if printPipeline { print(yaml, terminator: ""); return }
        let document: ConfigDocument
        do { document = try ConfigDocument(file: "<reaggregate pipeline>", text: yaml) } catch { throw configFailure(error) }
        let quarantine = (dbPath.hasSuffix(".sqlite") ? String(dbPath.dropLast(7)) : dbPath) + ".quarantine.ndjson"
        try RunExecution.execute(document: document, registry: registry, settings: runSettings,
                                 defaultQuarantine: quarantine, reportPath: report.map { ComponentBuilder.resolve($0, base: cwd) })
    }
}
