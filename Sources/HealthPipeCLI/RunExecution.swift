import ArgumentParser
import CHealthShims
import Foundation
import HealthPipeCore

/// Builds and runs a pipeline document, prints the summary, writes the JSON report, and maps the
/// outcome to the documented exit code.
enum RunExecution {
    static func execute(document: ConfigDocument, registry: ComponentRegistry, settings: RunSettings,
                        defaultQuarantine: String, reportPath: String?, quiet: Bool = false,
                        showProgress: Bool = true, stopEndsNormally: Bool = false) throws {
        let graph: PipelineGraph
        do {
            graph = try PipelineGraph.build(spec: try PipelineSpec(document: document), registry: registry,
                                            settings: settings, defaultQuarantine: defaultQuarantine)
        } catch let e as ConfigError { throw configFailure(e) } catch let e as ConfigErrors { throw configFailure(e) }

        // The report file is an output like any other: checked before the run, replaced by rename.
        if let reportPath {
            do { _ = try OutputPath.check(reportPath, what: "report") } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        }
        healthpipe_install_stop_handlers()
        let report = GraphRunner(showProgress: showProgress && isatty(2) != 0).run(graph)
        if !quiet || report.exitCode != 0 { printError(report.summary()) }
        if let reportPath {
            do { try AtomicFile.write(report.json(), to: reportPath, what: "report") } catch { printError("\(error)") }
        }
        // A live stream has no natural end: Ctrl-C is how the user finishes it, not a failure.
        if report.outcome == .interrupted, stopEndsNormally, report.error == nil {
            printError("stopped: every finished session is stored")
            if report.quarantined > 0 { throw ExitCode(3) }
            return
        }
        if report.outcome == .interrupted { printError("interrupted: committed data is consistent; run the same command again to complete it") }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
