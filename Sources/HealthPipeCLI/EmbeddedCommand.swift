import ArgumentParser
import Foundation
import HealthPipeCore

/// Runs a `healthpipe` command line inside another process: the app's forms (`healthpipe serve`)
/// write through the CLI's own commands, so a form and its command store, check and refuse alike,
/// with the same messages. While one runs, what it prints is collected on its thread instead of
/// written, and no stop-signal handlers are installed (the server owns SIGINT and SIGTERM).
/// Commands run one at a time per thread; the server runs them on its one writer thread.
package enum EmbeddedCommand {
    package struct Outcome: Sendable {
        /// The CLI's exit code (0 ok, 1 failed, 2 a usage or configuration mistake).
        package var code: Int32
        package var output: [String]
        package var errors: [String]
    }

    final class Capture {
        var output: [String] = []
        var errors: [String] = []
    }

    private static let key = "healthpipe.embedded-command"

    /// The capture of the command running on this thread; nil in the `healthpipe` process itself.
    static var capture: Capture? { Thread.current.threadDictionary[key] as? Capture }

    /// `arguments` as typed after `healthpipe` (pass values as `--flag=value`, so none reads as a flag).
    package static func run(_ arguments: [String]) -> Outcome {
        let capture = Capture()
        Thread.current.threadDictionary[key] = capture
        defer { Thread.current.threadDictionary.removeObject(forKey: key) }
        var code: Int32 = 0
        do {
            var command = try HealthPipeMain.parseAsRoot(arguments)
            try command.run()
        } catch {
            let exit = HealthPipeMain.exitCode(for: error)
            let message = HealthPipeMain.fullMessage(for: error)
            if !message.isEmpty { if exit == .success { capture.output.append(message) } else { capture.errors.append(message) } }
            code = exit.rawValue == 64 ? 2 : exit.rawValue
        }
        return Outcome(code: code, output: capture.output, errors: capture.errors)
    }
}
