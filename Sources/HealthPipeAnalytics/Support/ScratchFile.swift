#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif

/// An anonymous scratch file for spilled runs: unlinked as soon as it is created, so it vanishes
/// with the process however the run ends. Reads and writes are positioned (pread/pwrite).
public final class ScratchFile {
    private let fd: Int32
    public private(set) var size: Int64 = 0
    let purpose: String

    /// `purpose` names the file in errors ("daily summaries").
    public init(purpose: String) throws {
        self.purpose = purpose
        let dir = Self.temporaryDirectory
        var template = Array("\(dir)/healthpipe-\(purpose.filter(\.isLetter))-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ScratchFileError("cannot create a scratch file for \(purpose) in \(dir): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends bytes at the end; returns where they start.
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let at = size
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(at) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ScratchFileError("cannot write the \(purpose) scratch file: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        size += Int64(bytes.count)
        return at
    }

    /// Reads exactly `into.count` bytes at `offset`.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                throw ScratchFileError("cannot read the \(purpose) scratch file: "
                                       + (n == 0 ? "it is shorter than written" : String(cString: strerror(errno))))
            }
            done += n
        }
    }

    /// Where scratch files go: $TMPDIR, else /tmp.
    public static var temporaryDirectory: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 { return String(cString: t) }
        return "/tmp"
    }
}

public struct ScratchFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ message: String) { description = message }
}
