import ArgumentParser
import HealthPipeCLI
import HealthPipeServe

/// The `healthpipe` command: the CLI's commands and `serve`.
struct HealthPipeCommand: ParsableCommand {
    static let configuration = HealthPipeMain.rootConfiguration(adding: [ServeCommand.self])
}

HealthPipeMain.main(root: HealthPipeCommand.self)
