import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeCore

/// Flags shared by the commands that build pipelines.
struct SharedOptions: ParsableArguments {
    @Option(name: .long, help: "IANA zone (e.g. Europe/London) or offset (+01:00) for naive local timestamps.")
    var timezone: String?

    @Option(name: .long, help: "Whose data this is (stored in every row's subject column).")
    var subject: String?

    @Option(name: .customLong("plugin-path"), help: "Extra folder of YAML adapters (repeatable; also HEALTHPIPE_PLUGIN_PATH).")
    var pluginPaths: [String] = []

    func registry() throws -> ComponentRegistry {
        try BuiltinPlugins.registry(pluginPaths: pluginPaths.map { ComponentBuilder.resolve($0, base: FileManager.default.currentDirectoryPath) })
    }
}

/// Prints what went wrong with a configuration and exits 2.
func configFailure(_ error: Error) -> ExitCode {
    printError("\(error)")
    return ExitCode(2)
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
