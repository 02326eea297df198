import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeCore

/// Flags shared by the commands that build pipelines.
struct SharedOptions: ParsableArguments {
    @Option(name: .long, help: "IANA zone (e.g. Europe/London) or offset (+01:00) for naive local timestamps.")
    var timezone: String?

    @OptionGroup var subjectOption: SubjectOption
    var subject: String? { subjectOption.subject }

    @Option(name: .customLong("plugin-path"), help: "Extra folder of YAML adapters (repeatable; also HEALTHPIPE_PLUGIN_PATH).")
    var pluginPaths: [String] = []

    func registry() throws -> ComponentRegistry {
        try BuiltinPlugins.registry(pluginPaths: resolvedPluginPaths)
    }

    /// Adapter folders beyond the bundled one: `--plugin-path` or HEALTHPIPE_PLUGIN_PATH.
    var hasExtraAdapterFolders: Bool { BuiltinPlugins.adapterDirectories(extra: resolvedPluginPaths).count > 1 }

    private var resolvedPluginPaths: [String] {
        pluginPaths.map { ComponentBuilder.resolve($0, base: FileManager.default.currentDirectoryPath) }
    }
}

/// Prints what went wrong with a configuration and exits 2.
func configFailure(_ error: Error) -> ExitCode {
    printError("\(error)")
    return ExitCode(2)
}

/// The one way the CLI writes to stderr: each line capped and control characters made visible
/// (`EchoText.lines`), so an echoed 10 KB argument or a file's escape sequences cost one plain line.
func printError(_ text: String) {
    if let capture = EmbeddedCommand.capture { return capture.errors.append(EchoText.lines(text)) }
    StandardError.write(Array((EchoText.lines(text) + "\n").utf8))
}

/// Every text the CLI prints to standard output passes here (it shadows `Swift.print` in this
/// module): control characters of stored text — a meal name, a note, a file name — are shown
/// escaped (`EchoText.visible`) instead of driving the terminal.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    if let capture = EmbeddedCommand.capture { return capture.output.append(EchoText.visible(items.map { "\($0)" }.joined(separator: separator))) }
    Swift.print(EchoText.visible(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}
