import Foundation
import Testing

/// An adapter's duration column holding a number no duration can be (1e300 minutes) is refused with
/// the reason and its row quarantined, instead of trapping on the conversion to seconds.
@Suite struct MappedBoundaryTests {
    @Test func anImpossibleDurationIsQuarantinedNotACrash() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("mysugr.csv"), q = dir.appendingPathComponent("q.ndjson")
        let db = dir.appendingPathComponent("h.sqlite")
        let real = try String(contentsOf: RealCorpusTests.root.appendingPathComponent("mysugr/mysugr-en-us-mgdl.csv"), encoding: .utf8)
        var lines = real.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let columns = lines[0].components(separatedBy: "\",\"").count  // every cell is quoted
        var cells = Array(repeating: "\"\"", count: columns)
        cells[0] = "\"Aug 3, 2020\""
        cells[1] = "\"9:42:20 AM\""
        cells[13] = "\"1e300\""  // Activity Duration (Minutes)
        lines.insert(cells.joined(separator: ","), at: 1)
        try E2E.write(lines.joined(separator: "\n"), to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--quarantine", q.path, "--timezone", "UTC"])
        #expect(r.code == 3, "\(r.stderr)")
        let quarantined = try String(contentsOf: q, encoding: .utf8)
        #expect(quarantined.contains("1e+300 min is outside the plausible range 0–20160 min"), "\(quarantined)")
        #expect(E2E.count(db, "measurements") > 0)
    }
}
