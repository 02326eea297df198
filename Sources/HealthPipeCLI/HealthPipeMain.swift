import ArgumentParser

/// `healthpipe`: import health exports, run pipelines, inspect plugins.
public struct HealthPipeMain: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "healthpipe",
        abstract: "Import wearable and CGM exports, compute daily views, write SQLite and JSON.",
        discussion: """
        Exit codes: 0 ok, 1 failed or interrupted, 2 configuration error, 3 finished with quarantined rows.
        """,
        version: "0.1.0",
        subcommands: [ImportCommand.self, RunCommand.self, ValidateCommand.self, PluginsCommand.self,
                      MetricsCommand.self, EvaluateCommand.self, ReaggregateCommand.self, StreamCommand.self,
                      HistoryCommand.self, ChartCommand.self, PageCommand.self,
                      // The personal health log (seed 004, seeds 000/002): docs/reports.md.
                      ReportsCommand.self, AddCommand.self, EpisodeCommand.self, EntriesCommand.self, AlertsCommand.self,
                      DaysCommand.self, FavouriteCommand.self,
                      // A YAML adapter drafted from an unknown CSV (docs/adapters.md).
                      AdaptersCommand.self])

    public init() {}
}
