import ArgumentParser
import Foundation
import HealthPipeCore

/// `healthpipe`: import health exports, run pipelines, inspect plugins.
public struct HealthPipeMain: ParsableCommand {
    public static let configuration = rootConfiguration(adding: [])

    /// The root's configuration with `extra` commands beside the CLI's own: the executable adds
    /// `serve`, which lives in its own module (HealthPipeServe) because it needs the HTTP server.
    public static func rootConfiguration(adding extra: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "healthpipe",
            abstract: "Import wearable and CGM exports, compute daily views, write SQLite and JSON.",
            discussion: """
            Exit codes: 0 ok, 1 failed or interrupted (or its output or report could not be written), \
            2 configuration error, 3 finished with quarantined rows.
            """,
            version: "0.1.0",
            subcommands: [ImportCommand.self, RunCommand.self, ValidateCommand.self, PluginsCommand.self,
                          MetricsCommand.self, EvaluateCommand.self, ReaggregateCommand.self, StreamCommand.self,
                          HistoryCommand.self, ChartCommand.self, PageCommand.self,
                          // The personal health log (seed 004, seeds 000/002): docs/reports.md.
                          ReportsCommand.self, AddCommand.self, EpisodeCommand.self, EntriesCommand.self, AlertsCommand.self,
                          DaysCommand.self, FavouriteCommand.self, PersonCommand.self,
                          // A YAML adapter drafted from an unknown CSV (docs/adapters.md).
                          AdaptersCommand.self] + extra)
    }

    public init() {}

    /// The CLI's own contract, in one place: a usage mistake exits 2 (argument-parser says 64), and
    /// what `print` buffered for standard output is flushed and checked before any exit, so a full
    /// disk or `> /dev/full` is exit 1 with the reason instead of a silent success; a failed write
    /// to standard error (`2> /dev/full`) turns a status of 0 into 1 as well.
    public static func main() { main(root: HealthPipeMain.self) }

    /// Runs `root` (this command, or the executable's root with `serve` added).
    public static func main<Root: ParsableCommand>(root: Root.Type) {
        let code: Int32
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            try ChartCommand.checkView(arguments)
            var command = try root.parseAsRoot(ImportOperands.split(arguments))
            try command.run()
            code = 0
        } catch {
            let exit = root.exitCode(for: error)
            let message = root.fullMessage(for: error)
            if !message.isEmpty {
                if exit == .success { print(message) } else { printError(message) }
            }
            code = exit.rawValue == 64 ? 2 : exit.rawValue
        }
        if let problem = StandardOutput.flushProblem() {
            printError("error: standard output: cannot write: \(problem)")
            Foundation.exit(code == 0 ? 1 : code)
        }
        // The report, warnings or errors could not be written (`2> /dev/full`): nobody was told
        // what happened, so the run does not say "ok" (what was committed stays committed).
        if StandardError.writeProblem != nil { Foundation.exit(code == 0 ? 1 : code) }
        Foundation.exit(code)
    }
}
