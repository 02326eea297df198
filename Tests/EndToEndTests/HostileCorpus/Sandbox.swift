import CSQLite
import Foundation

/// A fresh folder for one case: its inputs, its outputs, and a fingerprint of everything in it, so a
/// case can prove that nothing outside its allowed outputs was created, changed or deleted.
struct Sandbox: Sendable {
    static let defaultOutputs: Set<String> = ["h.sqlite", "h.sqlite-wal", "h.sqlite-shm", "h.quarantine.ndjson"]

    let root: URL

    init() {
        root = E2E.tempDir()
        // Unprivileged cases run as `nobody`: the folder must be theirs to write in.
        chmod(root.path, 0o777)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    var db: String { path("h.sqlite") }
    var quarantine: String { path("h.quarantine.ndjson") }

    /// `import FILE --db h.sqlite --timezone UTC` plus extra arguments.
    func importing(_ files: [String], _ extra: [String] = []) -> [String] {
        ["import"] + files + ["--db", db, "--timezone", "UTC"] + extra
    }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let p = path(relative)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String { try write(relative, Data(text.utf8)) }

    /// A special file inside the sandbox standing for a device: a character device like /dev/full
    /// when running as root, else a FIFO. Never a real system device: a broken build under test
    /// could delete or replace whatever path it is given.
    func device(_ relative: String) throws -> String {
        let p = path(relative)
        if getuid() == 0, mknod(p, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 { return p }
        guard mkfifo(p, 0o666) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return p
    }

    // MARK: What landed

    func count(_ table: String, _ filter: String = "1") -> Int? {
        guard FileManager.default.fileExists(atPath: db) else { return nil }
        return E2E.count(URL(fileURLWithPath: db), table, filter)
    }

    func query(_ sql: String) -> [[String]] { E2E.query(URL(fileURLWithPath: db), sql) }

    /// The quarantine file's rows, parsed.
    func quarantinedRows(_ file: String? = nil) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: file.map(path) ?? quarantine, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    // MARK: Fingerprint

    /// Every entry under the root (symbolic links not followed): kind, size and content hash.
    func fingerprint() -> [String: String] {
        var out: [String: String] = [:]
        func visit(_ dir: String, _ prefix: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names {
                let full = dir + "/" + name, rel = prefix + name
                var st = stat()
                guard lstat(full, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR:
                    out[rel] = "dir \(st.st_mode & 0o7777)"
                    visit(full, rel + "/")
                case S_IFREG:
                    out[rel] = "file \(st.st_size) \(st.st_mode & 0o7777) " + Self.hash(full)
                case S_IFLNK:
                    out[rel] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
                default:
                    out[rel] = "special \(st.st_mode)"
                }
            }
        }
        visit(root.path, "")
        return out
    }

    /// FNV-1a over the file's bytes, read in chunks (some inputs are tens of megabytes).
    static func hash(_ path: String) -> String {
        guard let h = FileHandle(forReadingAtPath: path) else { return "unreadable" }
        defer { try? h.close() }
        var v: UInt64 = 0xcbf2_9ce4_8422_2325
        while let chunk = try? h.read(upToCount: 1 << 20), !chunk.isEmpty {
            for b in chunk { v = (v ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        return String(v, radix: 16)
    }
}
