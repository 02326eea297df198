import Foundation

/// One file a command or pipeline touches, and how: read (an input), read and written (a store:
/// a database), or written (an output: NDJSON, page, SVG, report, FHIR, quarantine, chart).
public struct FileRole: Sendable, Equatable {
    public enum Use: String, Sendable { case input, store, output }
    public var path: String
    /// What it is, for the message ("NDJSON output", "database", "input").
    public var what: String
    public var use: Use

    public init(_ use: Use, _ path: String, what: String) {
        self.use = use
        self.path = path
        self.what = what
    }
}

/// Sinks (and sources) that name the files they touch, so `FileRoles.clash` sees every one of them.
public protocol FileRoleDescribing {
    var fileRoles: [FileRole] { get }
}

/// The one output rule: no path a command writes may be a file it also reads or writes under
/// another role. Every path is resolved to the file it names — the same path, a symbolic link to it
/// or a hard link (same device and inode) — and compared with every other, before any work, so
/// `page --db h.sqlite -o h.sqlite` or a pipeline whose NDJSON sink writes over its source is
/// refused (exit 2) instead of destroying the file. The same input twice is refused too: every
/// record would be read, counted and written twice.
public enum FileRoles {
    /// Nil when no two roles name the same file, else a message naming both.
    public static func clash(_ roles: [FileRole]) -> String? {
        // By identity in a dictionary: 20,000 inputs are compared in linear time, not pairwise.
        var seen: [Identity: FileRole] = [:]
        for role in roles {
            guard let id = Identity(role.path) else { continue }
            if let earlier = seen[id] { return message(earlier, role) }
            seen[id] = role
        }
        return nil
    }

    static func message(_ a: FileRole, _ b: FileRole) -> String {
        let linked = a.path == b.path ? "" : " (the same file)"
        if a.use == .input, b.use == .input {
            return "the input \(EchoText.cap(b.path, to: 300)) is given twice (as \(EchoText.cap(a.path, to: 300))\(linked)): "
                + "each record would be read and written twice; give it once"
        }
        let (written, other) = b.use == .output || a.use != .output ? (b, a) : (a, b)
        return "the \(written.what) \(EchoText.cap(written.path, to: 300)) is the \(other.what) \(EchoText.cap(other.path, to: 300))\(linked): "
            + "writing it would destroy \(other.use == .input ? "the input" : "it"); give the \(written.what) another path"
    }

    /// What a path names: an existing file by device and inode (links and hard links meet there), a
    /// file still to be created by its resolved folder and name. Nil for standard input/output and
    /// devices (nothing to destroy, `/dev/null` may take several outputs).
    enum Identity: Hashable {
        case inode(UInt64, UInt64)
        case path(String)

        init?(_ path: String) {
            guard !path.isEmpty, path != "-" else { return nil }
            var st = stat()
            if stat(path, &st) == 0 {
                switch st.st_mode & S_IFMT {
                case S_IFREG, S_IFDIR: self = .inode(UInt64(st.st_dev), UInt64(st.st_ino))
                default: return nil
                }
                return
            }
            self = .path(Self.resolved(path))
        }

        /// The absolute path with its existing folder's links resolved (the file itself does not exist).
        static func resolved(_ path: String, depth: Int = 0) -> String {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            // A dangling link is the file it will create.
            var st = stat()
            if depth < 32, lstat(absolute, &st) == 0, st.st_mode & S_IFMT == S_IFLNK,
               let target = try? FileManager.default.destinationOfSymbolicLink(atPath: absolute) {
                let folder = (absolute as NSString).deletingLastPathComponent
                return resolved(target.hasPrefix("/") ? target : folder + "/" + target, depth: depth + 1)
            }
            let folder = (absolute as NSString).deletingLastPathComponent
            let name = (absolute as NSString).lastPathComponent
            guard let real = realpath(folder, nil) else { return (absolute as NSString).standardizingPath }
            defer { free(real) }
            return String(cString: real) + "/" + name
        }
    }
}
