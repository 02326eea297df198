import Foundation
import Testing

/// A vendor export (test text) written to a new folder and imported into a new database there, with
/// `--timezone` and a quarantine file: the import must succeed, read the file as `format` and reject no row.
struct ImportedExport {
    let dir: URL
    let db: URL
    /// The import's arguments, for importing the same file again.
    let args: [String]

    init(_ text: String, file: String, timezone: String, format: String,
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        dir = E2E.tempDir()
        db = dir.appendingPathComponent("h.sqlite")
        let csv = dir.appendingPathComponent(file)
        try E2E.write(text, to: csv)
        args = ["import", csv.path, "--db", db.path, "--timezone", timezone, "--quarantine", dir.appendingPathComponent("q.ndjson").path]
        let r = try E2E.run(args)
        #expect(r.code == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == format, sourceLocation: sourceLocation)
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == "0", sourceLocation: sourceLocation)
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}
