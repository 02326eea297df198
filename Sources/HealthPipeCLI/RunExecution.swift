import ArgumentParser
import Foundation
import HealthPipeCore
import HealthPipeStore

/// Builds and runs a pipeline, brings the derived rows of every database it wrote up to date with
/// its stored readings (`StoreDerivation`), prints the summary, writes the JSON report, and maps the
/// outcome to the documented exit code.
enum RunExecution {
    static func execute(spec: @autoclosure () throws -> PipelineSpec, registry: ComponentRegistry, settings: RunSettings,
                        defaultQuarantine: String, reportPath: String?, quiet: Bool = false,
                        showProgress: Bool = true, stopEndsNormally: Bool = false, trustStream: Bool = false,
                        configure: (PipelineGraph) throws -> Void = { _ in }) throws {
        let graph: PipelineGraph
        do {
            graph = try PipelineGraph.build(spec: try spec(), registry: registry, settings: settings,
                                            defaultQuarantine: defaultQuarantine)
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }
        if !quiet { for note in graph.unwritten { printError("note: \(note)") } }
        try refuseFileClash(graph, reportPath: reportPath)
        // Outputs (the report file too: it is replaced by rename) are checked before a database is
        // opened for its settings, so a wrong path creates nothing.
        if let problem = GraphRunner.outputProblem(of: graph) {
            printError("error: \(problem)")
            throw ExitCode(1)
        }
        if let reportPath {
            do { _ = try OutputPath.check(reportPath, what: "report") } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        }
        do {
            try StoreDerivation.prepare(graph, registry: registry, run: settings, trustStream: trustStream)
            try configure(graph)
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }
        // Inside the server, its own handlers stop it; a command run there is not interrupted.
        if EmbeddedCommand.capture == nil { StopRequest.installHandlers() }
        var report = run(graph, registry: registry, settings: settings, quarantine: defaultQuarantine,
                         showProgress: showProgress && isatty(2) != 0)
        // The report is an output like any other: one that cannot be written (a full disk) fails
        // the run, and the summary says so instead of "completed".
        if let reportPath {
            do { try AtomicFile.write(report.json(), to: reportPath, what: "report") } catch {
                report.outcome = .failed
                report.error = (report.error.map { $0 + "; " } ?? "") + "\(error)"
            }
        }
        if !quiet || report.exitCode != 0 { printError(report.summary()) }
        // A live stream has no natural end: Ctrl-C is how the user finishes it, not a failure.
        if report.outcome == .interrupted, stopEndsNormally, report.error == nil {
            printError("stopped: every finished session is stored")
            if report.quarantined > 0 { throw ExitCode(3) }
            return
        }
        if report.outcome == .interrupted {
            printError("interrupted: committed data is consistent; run the same command again to complete it")
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// Runs a prepared graph and, when it completed, brings the derived rows of every store it wrote
    /// up to date: what every run does, `import` and the server's uploads alike. Prints nothing.
    static func run(_ graph: PipelineGraph, registry: ComponentRegistry, settings: RunSettings, quarantine: String,
                    showProgress: Bool = false) -> RunReport {
        var report = GraphRunner(showProgress: showProgress).run(graph)
        if report.outcome == .completed {
            StoreDerivation.refreshAfter(graph, into: &report, registry: registry, run: settings, quarantine: quarantine)
        }
        return report
    }
}
