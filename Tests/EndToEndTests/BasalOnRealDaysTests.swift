import Foundation
import Testing

/// A real Loop day (Tests/Fixtures/real/nightscout): every temp basal the upload holds is on the
/// day view as a step of its rate (U/h) with its span, in the JSON and the SVG. Before, the day
/// view drew no basal rate at all.
@Suite struct BasalOnRealDaysTests {
    @Test func aLoopDaysTempBasalsAreStepsOfTheirRate() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = E2E.fixtures.appendingPathComponent("real/nightscout")
        let r = try E2E.run(["import", real.appendingPathComponent("nightscout-loop-entries.json").path,
                             real.appendingPathComponent("nightscout-loop-treatments.json").path, "--db", db.path, "--quiet"])
        #expect(r.code == 0, "\(r.stderr)")
        let stored = E2E.query(db, "SELECT value FROM measurements WHERE metric = 'basal_rate' ORDER BY start").map { Double($0[0])! }
        #expect(stored.count == 34)
        let chart = try E2E.run(["chart", "day", "--db", db.path])
        #expect(chart.code == 0, "\(chart.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(chart.stdout.utf8)) as? [String: Any]
        let basal = try #require(json?["basal"] as? [[String: Any]])
        #expect(basal.compactMap { $0["rate_u_h"] as? Double } == stored)
        #expect(basal.allSatisfy { $0["temporary"] as? Bool == true })
        let svg = dir.appendingPathComponent("day.svg")
        #expect(try E2E.run(["chart", "day", "--db", db.path, "--svg", svg.path]).code == 0)
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.components(separatedBy: "class=\"basal-step temp\"").count - 1 == 34)
        #expect(text.contains("<title>Temp basal 3.8 U/h 17:23–"), "\(text.prefix(200))")
    }
}
