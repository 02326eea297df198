import ArgumentParser
import Foundation
import HealthPipeAnalytics
import HealthPipeCore

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score the glucose forecasting models: train on each subject's first 7 days, test on the rest.",
        discussion: """
        The protocol of docs/prediction.md (reference analytics.md §7): per subject, days 1–7 from the first reading
        train (a ridge model fits itself there, exactly as `predict` does), and forecasts are scored against the
        reading `horizon` later for targets from 60 minutes into day 8 on. Prints RMSE (pooled, and the mean of the
        subjects' RMSEs), MAE, MARD %, and Clarke zones A and A+B %, overall and per subject.
        """)

    @OptionGroup var store: OptionalStoreOptions
    @Option(help: "Read readings and events from this export file (format detected from its content).") var input: String?
    @Option(help: "Force the input's source type (see `healthpipe plugins`).") var format: String?
    @Option(name: .customLong("model"), help: "A forecast model (repeatable; default: all three).")
    var models: [ForecastModelKind] = []
    @Option(help: "Forecast horizon: 5m … 60m in 5-minute steps.") var horizon: String = "30m"
    @Option(name: .customLong("exclude"), help: "Leave this subject out (repeatable).") var excluded: [String] = []
    @Flag(help: "Print the scores as JSON.") var json = false
    @OptionGroup var shared: SharedOptions

    func run() throws {
        guard (store.db == nil) != (input == nil) else { throw configFailure(ValidationError("give exactly one of --db or --input")) }
        guard let minutes = DurationText.minutes(horizon), minutes >= 5, minutes <= 60, minutes % 5 == 0 else {
            throw configFailure(ValidationError("--horizon must be 5m … 60m in 5-minute steps (got '\(horizon)')"))
        }
        var kinds: [ForecastModelKind] = []
        for k in models.isEmpty ? ForecastModelKind.allCases : models where !kinds.contains(k) { kinds.append(k) }
        let series = try SeriesLoader.load(db: store.db, input: input, format: format, shared: shared)
            .filter { !excluded.contains($0.subject) }
            .sorted { $0.subject < $1.subject }
        guard !series.isEmpty else {
            printError("no glucose readings to evaluate")
            throw ExitCode(1)
        }
        let result = ForecastEvaluation.run(series: series, models: kinds, horizonMinutes: minutes)
        print(json ? EvaluationReport.json(result, models: kinds, subjects: series.map(\.subject), horizon: minutes)
                   : EvaluationReport.table(result, models: kinds, subjects: series.map(\.subject), horizon: minutes),
              terminator: "")
    }
}
