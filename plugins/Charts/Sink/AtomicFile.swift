import Foundation

/// Writes a whole file the safe way: into a temporary file beside the target, then `rename(2)`
/// over it, so a reader (or a crash) never sees half a chart. Only a regular file is ever
/// replaced: a folder, a device, a pipe or a symbolic link at the path is an error.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        let fm = FileManager.default
        if let attributes = try? fm.attributesOfItem(atPath: path) {
            let type = attributes[.type] as? FileAttributeType
            guard type == .typeRegular else {
                throw Failure(description: "\(path): not a regular file (\(type?.rawValue ?? "unknown type")); refusing to replace it")
            }
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        do {
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "\(dir): cannot create the folder (\(error.localizedDescription))")
        }
        let temp = dir + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard fm.createFile(atPath: temp, contents: Data(bytes)) else {
            throw Failure(description: "\(temp): cannot write the file")
        }
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? fm.removeItem(atPath: temp)
            throw Failure(description: "\(path): cannot rename the new file into place (\(reason))")
        }
    }

    public static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }
}
