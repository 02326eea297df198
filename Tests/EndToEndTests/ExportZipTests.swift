import Foundation
import Testing
import ZIPFoundation

/// A zip of exports (Glooko's and YourLoops' downloads) imports as its files would one by one: each
/// file detected by content, the same rows as the independent counters give for the files, files no
/// format reads named in a warning, and nothing new on a second import.
@Suite struct ExportZipTests {
    /// Zips the real corpus excerpts of `folder` (plus `extra` files) and returns the zip and the
    /// folder's expected totals summed over its files.
    func zipOfCorpus(_ folder: String, extra: [String: String] = [:], compression: CompressionMethod = .none, in dir: URL) throws
        -> (zip: URL, measurements: [String: Int], events: [String: Int], files: Int) {
        let root = RealCorpusTests.root.appendingPathComponent(folder)
        let zip = dir.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        var measurements: [String: Int] = [:], events: [String: Int] = [:]
        let cases = RealCorpusTests.cases().filter { $0.folder == folder }
        for c in cases {
            try archive.addEntry(with: c.file, fileURL: root.appendingPathComponent(c.file))
            for (k, v) in c.measurements { measurements[k, default: 0] += v.count }
            for (k, v) in c.events { events[k, default: 0] += v.count }
        }
        for (name, text) in extra {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compression) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return (zip, measurements, events, cases.count)
    }

    @Test(arguments: ["glooko", "yourloops"])
    func aZipOfExportsImportsLikeItsFiles(folder: String) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let z = try zipOfCorpus(folder, extra: ["alarms_data_1.csv": "Zeitstempel,Alarm\n01.02.2025 10:00,x\n"], in: dir)
        let args = ["import", z.zip.path, "--db", db.path, "--timezone", "Europe/Berlin"]
        let r = try E2E.run(args)
        #expect(r.code == 0, "\(r.stderr)")
        let stored = Dictionary(uniqueKeysWithValues: E2E.query(db, "SELECT metric, count(*) FROM measurements WHERE import_id IS NOT NULL GROUP BY metric")
            .map { ($0[0], Int($0[1]) ?? -1) })
        let kinds = Dictionary(uniqueKeysWithValues: E2E.query(db, "SELECT kind, count(*) FROM events GROUP BY kind").map { ($0[0], Int($0[1]) ?? -1) })
        #expect(stored == z.measurements)
        #expect(kinds == z.events)
        // Each file is an import of its own, named inside the zip.
        #expect(E2E.count(db, "imports", "path LIKE '%export.zip/%'") == z.files)
        #expect(r.stderr.contains("1 file(s) in the zip are no format HealthPipe reads and were not imported: alarms_data_1.csv"), "\(r.stderr)")
        let again = try E2E.run(args)
        #expect(again.code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func aZipWithNothingReadableSaysWhatItHolds() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("other.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        let data = Data("a,b\n1,2\n".utf8)
        try archive.addEntry(with: "numbers.csv", type: .file, uncompressedSize: Int64(data.count)) { p, s in data.subdata(in: Int(p)..<Int(p) + s) }
        let r = try E2E.run(["import", zip.path, "--db", dir.appendingPathComponent("h.sqlite").path])
        #expect(r.code == 1)
        #expect(r.stderr.contains("no file in the zip is an export HealthPipe reads (no format reads numbers.csv)"), "\(r.stderr)")
    }

    /// A zip whose last file's deflate stream is cut short (its central directory says fewer
    /// compressed bytes): the other files land whole, the damaged one is quarantined by name with
    /// "truncated", exit 3, promptly (the old reader looped forever on it).
    @Test func aDamagedFileInTheZipIsQuarantinedAndTheRestLands() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let noise = (0..<4000).map { "line \($0 * 7919 % 10007)\n" }.joined()
        let z = try zipOfCorpus("glooko", extra: ["zz_notes.csv": noise], compression: .deflate, in: dir)
        var bytes = [UInt8](try Data(contentsOf: z.zip))
        // The last central-directory header is zz_notes.csv's: halve its compressed size.
        let last = (0..<(bytes.count - 4)).last { bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 1 && bytes[$0 + 3] == 2 }
        let header = try #require(last)
        let size = UInt32(bytes[header + 20]) | UInt32(bytes[header + 21]) << 8 | UInt32(bytes[header + 22]) << 16
        for k in 0..<4 { bytes[header + 20 + k] = UInt8(truncatingIfNeeded: (size / 2) >> (8 * UInt32(k))) }
        try Data(bytes).write(to: z.zip)
        let started = Date()
        let r = try E2E.run(["import", z.zip.path, "--db", db.path, "--timezone", "Europe/Berlin"])
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(r.code == 3, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "import_id IS NOT NULL") == z.measurements.values.reduce(0, +))
        let quarantine = try String(contentsOf: dir.appendingPathComponent("h.quarantine.ndjson"), encoding: .utf8)
        #expect(quarantine.contains("export.zip/zz_notes.csv") && quarantine.contains("truncated"), "\(quarantine)")
    }
}
