import ArgumentParser
import HealthPipeCore

/// The one output rule at the command line (`FileRoles.clash`): a command whose output is one of its
/// inputs or stores, or two outputs that are one file, stops before any work with exit 2 (a usage
/// mistake), naming both.
func refuseFileClash(_ roles: [FileRole]) throws {
    if let clash = FileRoles.clash(roles) { throw configFailure(FileClash(message: clash)) }
}

func refuseFileClash(_ graph: PipelineGraph, reportPath: String?) throws {
    if let clash = graph.fileClash(reportPath: reportPath) { throw configFailure(FileClash(message: clash)) }
}

struct FileClash: Error, CustomStringConvertible {
    var message: String
    var description: String { "error: " + message }
}
