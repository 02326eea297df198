import ArgumentParser
import Dispatch
import Foundation
import HealthPipeCore

/// `healthpipe serve`: parses, checks, and runs `HealthServer` (docs/serve.md).
public struct ServeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the app and a Nightscout-compatible API over a database (docs/serve.md).",
        discussion: """
        Listens on 127.0.0.1 unless --host says otherwise, and then only with an API secret: the API_SECRET \
        environment variable (as Nightscout reads it) or --secret-file, at least 12 characters. Uploaders send \
        its SHA-1 in the api-secret header, or a token from `healthpipe serve token NAME`. SIGTERM or Ctrl-C \
        lets requests in flight finish, then exits.
        """,
        subcommands: [ServeRun.self, ServeToken.self], defaultSubcommand: ServeRun.self)

    public init() {}
}

/// Where the secret comes from, for both subcommands.
struct SecretOptions: ParsableArguments {
    @Option(name: .customLong("secret-file"), help: "A file whose first line is the API secret (else API_SECRET is read).")
    var secretFile: String?

    func load() throws -> APISecret? {
        do { return try APISecret.load(file: secretFile) } catch { throw ServeCommandFailure.configuration("\(error)") }
    }
}

struct ServeRun: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the server (the default).")

    @Option(help: "The HealthPipe SQLite database to serve.") var db: String
    @Option(help: "The address to listen on (default: loopback only).") var host: String = "127.0.0.1"
    @Option(help: "The port (0: any free port, printed at start).") var port: Int = 8080
    @Flag(name: .customLong("open-reads"), help: "Let anyone who can reach the server read without the secret (Nightscout's readable default role).")
    var openReads = false
    @Option(name: .customLong("idle-timeout"), help: "Seconds before a silent connection is closed.")
    var idleTimeout: Int64 = ServeLimits.idleSeconds
    @Option(help: "Whose data the Nightscout API reads and writes, and the person the app opens on (default: the database's only subject, else 'default'; the app lists everyone).")
    var subject: String?
    @Option(help: "IANA zone or offset of a person without a zone of their own (`healthpipe person`): the app's typed times, its 'now', reminders, and uploads without an offset.")
    var timezone: String?
    @OptionGroup var secret: SecretOptions

    func run() throws {
        guard idleTimeout >= 1 else { throw ServeCommandFailure.configuration("--idle-timeout is at least 1 second") }
        guard (0...65535).contains(port) else { throw ServeCommandFailure.configuration("--port \(port): a port is 0–65535") }
        let path = ComponentBuilder.resolve(db, base: FileManager.default.currentDirectoryPath)
        var settings = ServeSettings(database: path, host: host, port: port, secret: try secret.load(), openReads: openReads)
        settings.idleSeconds = idleTimeout
        settings.subject = subject
        if let timezone {
            guard ZoneResolver.timeZone(named: timezone) != nil else { throw ServeCommandFailure.configuration("--timezone \(timezone): unknown time zone") }
            settings.timezone = timezone
        }
        let server: HealthServer
        do { server = try HealthServer(settings: settings) } catch { throw ServeCommandFailure.configuration("\(error)") }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let hasSecret = settings.secret != nil
        try BlockingTask.run {
            try await server.run { port in
                ServeOutput.line("serving \(db) on http://\(shownHost):\(port)/ (Nightscout API: http://\(shownHost):\(port)/api/v1/)"
                                 + (!hasSecret ? "; no API secret set: uploads are refused" : ""))
            }
        }
        ServeOutput.line("stopped")
    }
}

struct ServeToken: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a token for a client (uploaders: write; followers: --read-only).",
        discussion: "A token is derived from the API secret: changing the secret revokes every token. With --subject the token sees (and writes) only that person, in the app and through the API.")

    @Argument(help: "The client's name: letters, digits and _ (e.g. xdrip).") var name: String
    @Flag(name: .customLong("read-only"), help: "A token that can only read.") var readOnly = false
    @Option(name: .customLong("subject"), help: "The one person the token may see (a follower of one child); without it, everyone.") var subject: String?
    @OptionGroup var secret: SecretOptions

    func run() throws {
        guard let s = try secret.load() else {
            throw ServeCommandFailure.configuration("no API secret: set API_SECRET or --secret-file")
        }
        do { Swift.print(try s.token(name: name, role: readOnly ? .read : .write, person: subject)) } catch { throw ServeCommandFailure.configuration("\(error)") }
    }
}

/// A configuration mistake: printed, exit 2 (the CLI's contract).
enum ServeCommandFailure {
    static func configuration(_ reason: String) -> ExitCode {
        ServeOutput.line("error: " + reason)
        return ExitCode(2)
    }
}

/// Runs async work to its end from a synchronous command (the CLI's commands are synchronous).
enum BlockingTask {
    static func run(_ body: @escaping @Sendable () async throws -> Void) throws {
        final class Outcome: @unchecked Sendable { var error: (any Error)? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        Task {
            do { try await body() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }
}

/// Lines for the person who started the server, on stderr, control characters made visible.
enum ServeOutput {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((EchoText.lines(text) + "\n").utf8))
    }
}
