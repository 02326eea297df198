import Foundation

/// A sink's output path that cannot be written, said before any work starts.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

/// Checks where a sink will write, before the run reads anything: the target must be a regular
/// file (or not exist yet) in a folder HealthPipe can create files in. A directory, a device, a
/// FIFO or an unwritable place is refused with the reason, so nothing is read in vain and nothing
/// the user has is replaced except a regular file (by `AtomicFile`'s rename).
public enum OutputPath {
    /// Returns the path to write (symbolic links followed to the file they name). `what` names the
    /// output in messages ("NDJSON output", "quarantine file"). `/dev/null` passes when
    /// `allowNullDevice` is set (writing nothing somewhere on purpose).
    public static func check(_ path: String, what: String, allowNullDevice: Bool = false) throws -> String {
        var target = path
        var st = stat()
        if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw OutputError(path: path, reason: "cannot write the \(what): the symbolic link cannot be followed (\(OSError.reason(errno)))")
            }
            target = String(cString: resolved)
            free(resolved)
        }
        if stat(target, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw OutputError(path: path, reason: "cannot write the \(what): it is a directory (give a file path inside it)")
            case S_IFCHR where allowNullDevice && target == "/dev/null":
                return target
            default:
                throw OutputError(path: path, reason: "cannot write the \(what): it is not a regular file (a device, FIFO or socket); "
                                  + "HealthPipe writes only regular files")
            }
            try probeFolder(of: target, path: path, what: what)
            // Asked, never opened: closing a descriptor of a file drops every POSIX lock this process
            // holds on it, and a database may be open here already (the settings read before a run,
            // the server's readers) — SQLite's locks would vanish under it (SQLITE_IOERR, or worse).
            guard faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) == 0 else {
                throw OutputError(path: path, reason: "cannot write the \(what): \(OSError.reason(errno))")
            }
            return target
        }
        try createFolders(for: target, path: path, what: what)
        try probeFolder(of: target, path: path, what: what)
        return target
    }

    /// Creates the missing folders above `target` one by one, so a failure names the OS reason and
    /// the part of the path it concerns (a regular file where a folder should be: "Not a directory").
    private static func createFolders(for target: String, path: String, what: String) throws {
        let folder = (target as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        var built = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o777) != 0, errno != EEXIST {
                throw OutputError(path: path, reason: "cannot create the folder \(built) for the \(what): \(OSError.reason(errno))")
            }
            var st = stat()
            if stat(built, &st) == 0, st.st_mode & S_IFMT != S_IFDIR {
                throw OutputError(path: path, reason: "cannot write the \(what): \(built) is a file, not a folder (\(OSError.reason(ENOTDIR)))")
            }
        }
    }

    /// Creates and removes a file beside `target`: the one test that also holds for root, read-only
    /// mounts and pseudo file systems such as /proc.
    private static func probeFolder(of target: String, path: String, what: String) throws {
        let folder = (target as NSString).deletingLastPathComponent
        switch TemporaryFile.create(prefix: (folder.isEmpty ? "." : folder) + "/.healthpipe-probe-") {
        case .failure(let e):
            throw OutputError(path: path, reason: "cannot write the \(what): cannot create files in \(folder.isEmpty ? "." : folder) (\(e.reason))")
        case .success(let (fd, probe)):
            close(fd)
            unlink(probe)
        }
    }
}
