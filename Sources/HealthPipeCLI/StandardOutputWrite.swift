import ArgumentParser
import HealthPipeCore

/// Writes a command's result to standard output; a failed write is exit 1 with the reason.
func emit(_ bytes: [UInt8]) throws {
    do { try StandardOutput.write(bytes) } catch {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}

/// Text for a person to read (a table): control characters of stored text shown as `\u{…}`
/// (`EchoText.visible`), as `print` does.
func emit(_ text: String) throws { try emit(Array(EchoText.visible(text).utf8)) }
