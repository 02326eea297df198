import Foundation
import HealthPipeCore

/// Feeds bytes to a source through a real stream: a pipe put on standard input, or a named pipe
/// (FIFO). A writer thread writes while the source reads; `finish` ends the feeding whatever the
/// source did (read all, stopped early, never opened it), so no thread or descriptor is left behind.
enum StreamFeed {
    /// One feeding under way: its writer's end signal and how to undo what it set up.
    private final class Feeding: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var undo: () -> Void = {}
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var feedings: [String: Feeding] = [:]
    /// A reader that stops early must not kill the process: the writer gets EPIPE instead of SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Puts a pipe holding `bytes` on file descriptor 0 (callers take `StandardInputLock`); returns `-`.
    static func standardInput(_ bytes: [UInt8]) throws -> String {
        _ = ignoreBrokenPipes
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw InputError(file: "-", reason: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        let saved = dup(0)
        dup2(fds[0], 0)
        close(fds[0])
        let feeding = Feeding()
        let writeEnd = fds[1]
        feeding.undo = {
            dup2(saved, 0)  // closes the pipe's read end: a writer still writing gets EPIPE
            close(saved)
        }
        start(feeding, path: "-") { writeAll(writeEnd, bytes) }
        return "-"
    }

    /// Makes a FIFO at `path` and writes `bytes` into it once a reader opens it; returns `path`.
    static func fifo(at path: String, _ bytes: [UInt8]) throws -> String {
        _ = ignoreBrokenPipes
        guard mkfifo(path, 0o600) == 0 else { throw InputError(file: path, reason: "cannot make a FIFO: \(String(cString: strerror(errno)))") }
        let feeding = Feeding()
        feeding.undo = {
            // A writer still waiting for a reader (the source never opened the FIFO) is let in and
            // finds nobody: its write fails with EPIPE.
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        start(feeding, path: path) {
            let fd = open(path, O_WRONLY)
            if fd >= 0 { writeAll(fd, bytes) }
        }
        return path
    }

    /// Ends the feeding of `path` (and drops a stream format detection left waiting for a source).
    static func finish(_ path: String) {
        _ = try? ByteInput.open(path)  // takes back an input deposited but never read (its descriptor closes)
        let feeding = lock.withLock { feedings.removeValue(forKey: path) }
        guard let feeding else { return }
        feeding.undo()
        _ = feeding.done.wait(timeout: .now() + 30)
    }

    private static func start(_ feeding: Feeding, path: String, _ write: @escaping @Sendable () -> Void) {
        lock.withLock { feedings[path] = feeding }
        let thread = Thread {
            write()
            feeding.done.signal()
        }
        thread.start()
    }

    /// Writes everything, then closes `fd`; stops at the first error (the reader went away).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        defer { close(fd) }
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                done += n
            }
        }
    }
}
