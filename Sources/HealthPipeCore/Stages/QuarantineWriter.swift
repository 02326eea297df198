import Foundation
import Synchronization

/// The dead-letter file: one NDJSON line per rejected row with stage, file, line, reason and raw
/// text. Created on the first rejected row only, appended to across runs, shared by all stages.
public final class QuarantineWriter: Sendable {
    public let path: String
    private let handle = Mutex<FileHandle?>(nil)

    public init(path: String) { self.path = path }

    public func write(stage: String, error: RowError) {
        var w = JSONWriter()
        w.beginObject()
        w.key("stage"); w.string(stage)
        w.key("file"); w.string(error.file)
        w.key("line"); w.int(error.line)
        w.key("reason"); w.string(error.reason)
        w.key("raw"); w.string(error.raw)
        w.endObject()
        w.newline()
        let data = Data(w.bytes)
        handle.withLock { h in
            if h == nil {
                let url = URL(fileURLWithPath: path)
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
                h = FileHandle(forWritingAtPath: path)
                _ = try? h?.seekToEnd()
            }
            try? h?.write(contentsOf: data)
        }
    }

    public func close() {
        handle.withLock { h in
            try? h?.close()
            h = nil
        }
    }
}
