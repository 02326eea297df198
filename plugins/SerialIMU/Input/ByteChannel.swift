import CSerialPort
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the bytes come from: a serial device (opened raw at a baud rate), a recorded capture
/// file, or standard input. Reads wait at most `pollMilliseconds`, so the caller can notice a
/// stop request or an idle timeout between reads.
final class ByteChannel {
    enum Kind { case device, file, standardInput }
    enum ReadResult { case bytes(Int), timeout, closed(String) }

    let kind: Kind
    private(set) var fd: Int32

    private init(kind: Kind, fd: Int32) {
        self.kind = kind
        self.fd = fd
    }

    deinit { close() }

    /// Opens `path`: `-` is standard input; a character device is a device (raw, `baud`); anything
    /// else (a capture file, a FIFO) is read as a recording. FIFOs are opened read-only so the
    /// writer closing it ends the input (read-write would make us our own writer: no EOF ever).
    static func open(path: String, baud: Int, forceDevice: Bool) throws(ChannelError) -> ByteChannel {
        if path == "-" { return ByteChannel(kind: .standardInput, fd: 0) }
        var st = stat()
        let exists = stat(path, &st) == 0
        let isFIFO = exists && (st.st_mode & S_IFMT) == S_IFIFO
        let isDevice = !isFIFO && (forceDevice || (exists && (st.st_mode & S_IFMT) == S_IFCHR))
        if isDevice {
            let fd = hp_serial_open(path, Int32(baud))
            guard fd >= 0 else { throw ChannelError(errno: errno, path: path) }
            return ByteChannel(kind: .device, fd: fd)
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ChannelError(errno: errno, path: path) }
        return ByteChannel(kind: .file, fd: fd)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, pollMilliseconds: Int32) -> ReadResult {
        guard fd >= 0 else { return .closed("closed") }
        let n = hp_serial_poll_read(fd, buffer.baseAddress, buffer.count, pollMilliseconds)
        if n > 0 { return .bytes(n) }
        if n == 0 { return .timeout }
        if n == -2 { return .closed(kind == .device ? "device hung up (EOF/EIO)" : "end of input") }
        return .closed(String(cString: strerror(errno)))
    }

    func close() {
        if fd > 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}

struct ChannelError: Error, CustomStringConvertible {
    var errno: Int32
    var path: String
    var description: String { "\(path): \(String(cString: strerror(errno)))" }
}

/// Wall-clock milliseconds since the epoch (CLOCK_REALTIME), without Foundation.
func wallClockMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

/// Monotonic milliseconds, for timeouts and backoff.
func monotonicMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}
