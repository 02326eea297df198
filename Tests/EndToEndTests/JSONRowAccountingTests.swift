import Foundation
import Testing

/// Nightscout and Tidepool imports account for every document as the CSV sources do for rows
/// (docs/reliability.md, "Every row accounted for"): the file's line adds up, a document of an unknown
/// type is warned about and the exit status is 3. Before, both exited 0 without a word or a count.
@Suite struct JSONRowAccountingTests {
    /// `N data rows = S stored + Q quarantined + K skipped` of the file's summary line, checked to add up.
    private func accountedLine(_ stderr: String, _ file: String) -> (rows: Int, stored: Int, quarantined: Int, skipped: Int)? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains(file) && $0.contains("data rows =") }) else { return nil }
        let n = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.suffix(6)
        guard n.count == 6 else { return nil }
        let v = Array(n)
        return (v[0], v[1], v[2], v[3])
    }

    /// Imports `docs` written as `name` with `format`: exit 3, the unknown type warned, the file's line adding up to `docs`.
    private func importExpectingUnknown(_ docs: [[String: Any]], _ name: String, _ format: String, type: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws -> (line: (rows: Int, stored: Int, quarantined: Int, skipped: Int)?, db: URL) {
        let path = E2E.tempDir().appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: docs).write(to: URL(fileURLWithPath: path))
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", path, "--format", format, "--db", db.path])
        #expect(r.code == 3, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains("1 row of type '\(type)'"), "\(r.stderr)", sourceLocation: sourceLocation)
        let line = accountedLine(r.stderr, name)
        #expect(line?.rows == docs.count, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(line.map { $0.stored + $0.quarantined + $0.skipped } == docs.count, sourceLocation: sourceLocation)
        return (line, db)
    }

    @Test func aNightscoutEntryOfAnUnknownTypeWarnsAndExits3() throws {
        let real = E2E.fixtures.appendingPathComponent("real/nightscout/nightscout-loop-entries.json")
        var docs = try JSONSerialization.jsonObject(with: Data(contentsOf: real)) as! [[String: Any]]
        docs.append(["type": "rawbg", "sgv": 140, "date": 1_757_890_801_312.0, "device": "xDrip-DexcomG5"])
        docs.append(["type": "cal", "date": 1_757_890_802_312.0, "slope": 850, "intercept": 31_000, "scale": 1])
        let (line, db) = try importExpectingUnknown(docs, "entries.json", "nightscout", type: "rawbg")
        #expect(line?.quarantined == 1 && line?.skipped == 1)
        #expect(E2E.count(db, "measurements") == 72)
    }

    @Test func aTidepoolDatumOfAnUnknownTypeWarnsAndExits3() throws {
        let real = E2E.samples.appendingPathComponent("overlap/tidepool_cbg.json")
        var docs = try JSONSerialization.jsonObject(with: Data(contentsOf: real)) as! [[String: Any]]
        var extra = docs[0]
        extra["type"] = "glucoseForecast"
        docs.append(extra)
        let (line, _) = try importExpectingUnknown(docs, "tidepool.json", "tidepool", type: "glucoseForecast")
        #expect(line?.stored == 36 && line?.quarantined == 1)
    }
}
