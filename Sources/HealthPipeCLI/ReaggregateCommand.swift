import ArgumentParser
import Foundation
import HealthPipeCore
import HealthPipeStore
import PostgresStore
import SQLiteStore

struct ReaggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reaggregate",
        abstract: "Recompute every derived row from the readings stored in a database (after settings change).",
        discussion: """
        Streams the stored measurements and events (the sqlite-source) through the database's derivation steps —
        resample, classify, daily, reports, predict, alerts — and replaces only derived data (measurement bands, the
        resampled grid, daily_summaries, daily_bands, glucose_metrics, glucose_agp, report_days, forecasts, alerts) in ONE
        transaction.
        Imported rows and user tables (favourites) are never touched; an interrupted or killed run leaves the previous
        derived data as it was. Without --config it uses the settings stored in the database (those of its first
        import); --config settings.yml replaces them, and later imports follow the new ones (docs/prediction.md):

          resample: { step_minutes: 5, max_gap_minutes: 45 }   # opt-in: stores the grid (source 'resampled')
          classify: { preset: consensus }
          daily: { hypo_below: 70, hyper_above: 180, unit: mg/dL }
          predict: { model: ridge, horizon: 30m, issue: latest }
          alerts: { low: 70, high: 250, model: ridge }
          reports: { reminder: "20:00", thresholds: [{ metric: body_temperature, above: 37.5, days: 7 }] }

        In a settings file classify, daily, reports, predict and alerts run unless set to false; resample only when named.
        The reports step (health reports' daily summaries, reminder and threshold alerts) is in docs/reports.md.
        """)

    @OptionGroup var store: StoreOptions
    @Option(help: "Settings file (YAML) choosing the steps, presets, thresholds and models; stored in the database.")
    var config: String?
    @Flag(name: .customLong("print-pipeline"), help: "Print the pipeline this runs and exit.") var printPipeline = false
    @Option(help: "Write the run report as JSON to this file.") var report: String?
    @Flag(help: "Print the summary only when something went wrong.") var quiet = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let location = store.location
        let postgres = location.isPostgres
        let dbPath = postgres ? location.pathOrURL : try location.existingPath()
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        let runSettings = RunSettings(timezone: shared.timezone, subject: shared.subject ?? SubjectRule.newStore, baseDirectory: cwd,
                                      pluginPaths: shared.pluginPaths)
        let settings: DerivationSettings
        let rows: [DerivationSettings.StoredStep]
        do {
            if let config {
                settings = try DerivationSettings(document: try ConfigDocument.load(path: ComponentBuilder.resolve(config, base: cwd)))
            } else {
                settings = try StoreDerivation.stored(dbPath) ?? .importDefaults()
            }
            rows = try StoreDerivation.rows(settings, registry: registry, run: runSettings)
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }
        let draft = DerivationPipeline.draft(settings, store: HealthStores.at(dbPath), command: "healthpipe reaggregate")
        if printPipeline { print(PostgresURL(postgres ? store.db : nil).redact(try draft.yaml()), terminator: ""); return }
        let quarantine = DefaultQuarantine.beside(database: dbPath, workingDirectory: cwd)
        try RunExecution.execute(spec: draft.spec(), registry: registry, settings: runSettings, defaultQuarantine: quarantine,
                                 reportPath: report.map { ComponentBuilder.resolve($0, base: cwd) }, quiet: quiet) { graph in
            StoreDerivation.storeSettings(rows, in: graph)
        }
    }
}
