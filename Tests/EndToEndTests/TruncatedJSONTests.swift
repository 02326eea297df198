import Foundation
import Testing

/// A JSON array cut before its closing `]` is a cut download, however complete its documents look:
/// every document read lands, and the run says where the file stopped (exit 3, one quarantine line).
@Suite struct TruncatedJSONTests {
    static let ns = E2E.samples.appendingPathComponent("nightscout/cgm_format_nightscout_entries.json")
    static let tidepool = E2E.samples.appendingPathComponent("tidepool/tidepool_export.json")

    /// The file's first `keep` array elements, written back without the closing bracket.
    func cut(_ source: URL, keep: Int, trailingComma: Bool, to url: URL) throws -> Int {
        let all = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [Any])
        let head = Array(all.prefix(keep))
        var text = String(decoding: try JSONSerialization.data(withJSONObject: head), as: UTF8.self)
        text.removeLast()  // the closing ]
        if trailingComma { text += ",\n" }
        try E2E.write(text, to: url)
        return head.count
    }

    @Test(arguments: [false, true])
    func aNightscoutArrayWithoutItsEndIsReportedAndItsDocumentsLand(trailingComma: Bool) throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("entries.json"), q = dir.appendingPathComponent("q.ndjson")
        let db = dir.appendingPathComponent("h.sqlite")
        let n = try cut(Self.ns, keep: 20, trailingComma: trailingComma, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--quarantine", q.path, "--timezone", "UTC"])
        #expect(r.code == 3, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == n)
        let line = try String(contentsOf: q, encoding: .utf8)
        #expect(line.contains("the file ends inside the array after $[19], before its closing ']'"), "\(line)")
    }

    @Test func aTidepoolArrayWithoutItsEndIsReportedToo() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("export.json"), q = dir.appendingPathComponent("q.ndjson")
        _ = try cut(Self.tidepool, keep: 10, trailingComma: false, to: file)
        let r = try E2E.run(["import", file.path, "--db", dir.appendingPathComponent("h.sqlite").path, "--quarantine", q.path])
        #expect(r.code == 3, "\(r.stderr)")
        #expect(try String(contentsOf: q, encoding: .utf8).contains("before its closing ']'"))
    }

    /// A document too large to hold (over 64 MiB) is refused with its first bytes, and the documents
    /// after it are still read.
    @Test func anOversizedDocumentIsRefusedAndTheRestOfTheFileIsRead() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("treatments.json"), q = dir.appendingPathComponent("q.ndjson")
        let db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        func bolus(_ minute: Int, _ notes: String) -> String {
            "{\"eventType\":\"Correction Bolus\",\"insulin\":1.5,\"created_at\":\"2024-03-01T08:\(minute < 10 ? "0" : "")\(minute):00Z\","
                + "\"enteredBy\":\"loop://iPhone\",\"notes\":\"\(notes)\"}"
        }
        let huge = String(repeating: "x", count: 65 << 20)
        try E2E.write("[" + bolus(1, "before") + ",\n" + bolus(2, huge) + ",\n" + bolus(3, "after") + "]\n", to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--quarantine", q.path, "--timezone", "UTC"])
        #expect(r.code == 3, "\(r.stderr.prefix(2000))")
        #expect(E2E.query(db, "SELECT note FROM events WHERE kind = 'insulin' ORDER BY start") == [["before"], ["after"]])
        let line = try String(contentsOf: q, encoding: .utf8)
        #expect(line.contains("$[1]: an object larger than 64 MiB is not read"))
        #expect(line.utf8.count < 4096)
    }

    @Test func aCompleteArrayIsNotReported() throws {
        let dir = E2E.tempDir()
        let r = try E2E.run(["import", Self.ns.path, "--db", dir.appendingPathComponent("h.sqlite").path, "--timezone", "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
    }
}
