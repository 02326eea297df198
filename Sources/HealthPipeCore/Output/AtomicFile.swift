import Foundation

/// A file written beside its target under a temporary name and renamed over it at the end, so a
/// reader never sees half of it and the rename only ever replaces a regular file (checked again
/// just before it happens). A run that fails before `commit` leaves the target as it was.
public final class AtomicFile {
    public let path: String
    /// The path the rename replaces (symbolic links followed).
    public let target: String
    public let temporaryPath: String
    private var fd: Int32

    /// Checks `path` (see `OutputPath.check`) and creates the temporary file beside it.
    public init(path: String, what: String) throws {
        self.path = path
        target = try OutputPath.check(path, what: what)
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        switch TemporaryFile.create(prefix: (folder.isEmpty ? "." : folder) + "/.\(name).partial-") {
        case .failure(let e): throw OutputError(path: path, reason: "cannot create a file beside the \(what): \(e.reason)")
        case .success(let (fd, temporary)):
            self.fd = fd
            temporaryPath = temporary
        }
        // mkstemp makes the file private; give it the mode the replaced file had, else the usual one.
        var st = stat()
        let mode: mode_t = stat(target, &st) == 0 ? st.st_mode & 0o7777 : 0o666 & ~Self.umaskValue
        fchmod(fd, mode)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(temporaryPath)
        }
    }

    private static var umaskValue: mode_t {
        let m = umask(0o022)
        umask(m)
        return m
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let code = Self.writeAll(fd, bytes) { throw OutputError(path: path, reason: "cannot write: \(OSError.reason(code))") }
    }

    /// Writes every byte to `fd`, retrying short writes; the errno of a failure, else nil.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? ENOSPC : errno }
            done += n
        }
        return nil
    }

    public func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try write($0) } }

    /// Flushes the data to disk and renames it over the target (a regular file or nothing).
    public func commit() throws {
        guard fd >= 0 else { return }
        if fsync(fd) != 0, errno != EINVAL {
            throw OutputError(path: path, reason: "cannot write: \(OSError.reason(errno))")
        }
        close(fd)
        fd = -1
        var st = stat()
        if stat(target, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            throw OutputError(path: path, reason: "is no longer a regular file, so it was not replaced; the output is in \(temporaryPath)")
        }
        guard rename(temporaryPath, target) == 0 else {
            throw OutputError(path: path, reason: "cannot rename \(temporaryPath) into place: \(OSError.reason(errno))")
        }
    }

    /// Writes `bytes` to `path` in one go (check, temporary file, rename).
    public static func write(_ bytes: [UInt8], to path: String, what: String) throws {
        let file = try AtomicFile(path: path, what: what)
        try file.write(bytes)
        try file.commit()
    }
}
