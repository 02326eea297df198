import Foundation

/// Standard output as an output like any other: a write that fails (a full disk, `> /dev/full`, a
/// closed pipe) is an error naming the OS reason, never a crash (`FileHandle.write` raises) and never
/// a silent success. `print`'s buffer is flushed first so the bytes stay in order.
public enum StandardOutput {
    public static func write(_ bytes: [UInt8]) throws {
        if let reason = flushProblem() { throw OutputError(path: "standard output", reason: "cannot write: \(reason)") }
        if let code = bytes.withUnsafeBytes({ AtomicFile.writeAll(1, $0) }) {
            throw OutputError(path: "standard output", reason: "cannot write: \(OSError.reason(code))")
        }
    }

    public static func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Flushes what `print` buffered: nil, or why it could not be written.
    public static func flushProblem() -> String? {
        errno = 0
        // fflush(NULL) flushes every output stream (stderr is unbuffered, so in effect stdout) and
        // keeps Swift 6 away from the global `stdout`.
        if fflush(nil) != 0 {
            let code = errno
            return OSError.reason(code == 0 ? EIO : code)
        }
        return nil
    }
}

