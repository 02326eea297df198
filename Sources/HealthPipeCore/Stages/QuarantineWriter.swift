import Foundation
import Synchronization

/// The dead-letter file: one NDJSON line per rejected row with stage, file, line, reason and raw
/// text. A sink like any other: its path is checked before the run starts (`prepare`), it is
/// created on the first rejected row only and appended to across runs, and a row that cannot be
/// written fails the run with the reason — a row is counted as quarantined only once it is on disk.
public final class QuarantineWriter: Sendable {
    public let path: String
    private struct State {
        var fd: Int32 = -1
        var failure: OutputError?
    }
    private let state = Mutex(State())

    public init(path: String) { self.path = path }

    deinit { state.withLock { if $0.fd >= 0 { Foundation.close($0.fd) } } }

    /// Checks, before any work, that the file can be written (a regular file or none yet, in a
    /// folder files can be created in; `/dev/null` discards on purpose).
    public func prepare() throws {
        _ = try OutputPath.check(path, what: "quarantine file", allowNullDevice: true)
    }

    /// Appends one rejected row. Throws `OutputError` when the file cannot be written (a full disk,
    /// a directory in its place): the row is not on disk, so it must not be counted as quarantined.
    public func write(stage: String, error: RowError) throws {
        var w = JSONWriter()
        w.beginObject()
        w.field("stage", stage); w.field("file", error.file); w.field("line", error.line)
        w.field("reason", error.reason); w.field("raw", error.raw)
        w.endObject()
        w.newline()
        try state.withLock { s in
            if let failure = s.failure { throw failure }
            if s.fd < 0 {
                let target = try OutputPath.check(path, what: "quarantine file", allowNullDevice: true)
                s.fd = Foundation.open(target, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
                guard s.fd >= 0 else { throw remember(&s, "cannot open the quarantine file: \(OSError.reason(errno))") }
            }
            if let code = w.bytes.withUnsafeBytes({ AtomicFile.writeAll(s.fd, $0) }) {
                throw remember(&s, "cannot write the quarantine file: \(OSError.reason(code))")
            }
        }
    }

    private func remember(_ s: inout State, _ reason: String) -> OutputError {
        let e = OutputError(path: path, reason: reason + "; the rejected rows are not saved, so the run stops")
        s.failure = e
        return e
    }

    public func close() {
        state.withLock { s in
            if s.fd >= 0 { Foundation.close(s.fd) }
            s.fd = -1
        }
    }
}
