import Testing
import Foundation

/// One hostile input and what HealthPipe must do with it (docs/reliability.md): the exit code, the
/// rows that land, the rows quarantined (line and reason), what stderr says, and that nothing on
/// disk changes except the outputs the case allows.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var name: String
    var setup: @Sendable (Sandbox) throws -> Invocation
    var expect: Expectation
    var testDescription: String { name }

    init(_ name: String, _ expect: Expectation, setup: @escaping @Sendable (Sandbox) throws -> Invocation) {
        self.name = name
        self.setup = setup
        self.expect = expect
    }
}

/// How healthpipe is started for a case.
struct Invocation: Sendable {
    var arguments: [String]
    var stdin: Data? = nil
    var environment: [String: String] = [:]
    /// Sends SIGTERM this many seconds after the start.
    var terminateAfter: Double? = nil
    /// Runs as an unprivileged user (nobody) when the tests run as root, so permissions apply.
    var unprivileged = false
    /// Runs the arguments through /bin/bash -c (process substitution and the like).
    var shell = false
}

/// What must hold after the run.
struct Expectation: Sendable {
    var exit: Int32
    var measurements: Int? = nil
    var events: Int? = nil
    /// The database must not exist afterwards (nothing was written).
    var noDatabase = false
    /// Quarantined rows in file order: the line (nil: any) and a substring of the reason.
    var quarantined: [Quarantined] = []
    /// The most bytes a quarantined raw text may have (a rejected XML element is kept whole up to 1 MiB).
    var rawLimit = 8192
    /// The dead-letter file, relative to the sandbox (nil: the import default h.quarantine.ndjson).
    var quarantineFile: String? = nil
    /// Substrings stderr must contain.
    var stderr: [String] = []
    /// Substrings stderr must not contain (a claim that did not come true).
    var stderrNot: [String] = []
    /// stderr must stay under this many bytes (echoed input is capped).
    var stderrLimit = 64 << 10
    /// Paths (relative to the sandbox) the run may create or change; everything else must be untouched.
    var writes: Set<String> = Sandbox.defaultOutputs
    /// SIGTERM must end the run within this many seconds.
    var stopWithin: Double? = nil
    /// More checks on the sandbox afterwards (database contents, output files).
    var check: (@Sendable (Sandbox) throws -> [String])? = nil

    struct Quarantined: Sendable {
        var line: Int64?
        var reason: String
        /// A substring the quarantined raw text must contain.
        var raw: String? = nil
    }
}

extension Expectation.Quarantined {
    static func line(_ line: Int64, _ reason: String, raw: String? = nil) -> Self { .init(line: line, reason: reason, raw: raw) }
    static func any(_ reason: String) -> Self { .init(line: nil, reason: reason) }
}
