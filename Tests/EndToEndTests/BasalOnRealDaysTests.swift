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

    /// The day view's basal of one imported file: (start, end, rate, temporary) of each step.
    func steps(_ file: String, _ extra: [String], date: String) throws -> [[String]] {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(["import", file, "--db", db.path, "--quiet", "--quarantine", dir.appendingPathComponent("q.ndjson").path] + extra)
        #expect([0, 3].contains(r.code), "\(r.stderr)")
        let chart = try E2E.run(["chart", "day", "--db", db.path, "--date", date])
        #expect(chart.code == 0, "\(chart.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(chart.stdout.utf8)) as? [String: Any]
        let events = json?["events"] as? [[String: Any]] ?? []
        // Every basal of these files is a delivery over time, drawn as a step, not again as a marker.
        #expect(!events.contains { $0["type"] as? String == "basal" })
        return (json?["basal"] as? [[String: Any]] ?? []).map { b in
            [b["start"] as? String ?? "", b["end"] as? String ?? "",
             "\(b["rate_u_h"] as? Double ?? -1)", (b["temporary"] as? Bool ?? false) ? "temp" : "scheduled"]
        }
    }

    /// Issue 22 (4): one basal representation (`basal_rate`, BasalRates) from every pump source, so
    /// each draws its steps the same way. Before, Tandem's rate changes were insulin events with the
    /// rate in metadata, Tidepool's segments and CareLink's temp basals events: none drew a step.
    @Test func everyPumpSourceDrawsItsBasalAsSteps() throws {
        // Tandem t:connect: three scheduled rate changes, each holding until the next.
        #expect(try steps(E2E.samples.appendingPathComponent("tandem/tconnect_therapy_timeline.csv").path, ["--timezone", "America/New_York"],
                          date: "2024-06-05")
                == [["2024-06-05T00:00:00", "2024-06-05T03:00:00", "0.85", "scheduled"],
                    ["2024-06-05T03:00:00", "2024-06-05T06:00:00", "0.95", "scheduled"],
                    ["2024-06-05T06:00:00", "2024-06-06T06:00:00", "0.8", "scheduled"]])  // no next change: held a day
        // Tidepool: scheduled segments as the schedule over their own spans, the temp and the suspend over them.
        #expect(try steps(E2E.samples.appendingPathComponent("tidepool/tidepool_export.json").path, [], date: "2024-03-01")
                == [["2024-03-01T02:00:05", "2024-03-01T03:00:05", "0.85", "scheduled"],
                    ["2024-03-01T03:45:05", "2024-03-01T04:30:05", "0.85", "scheduled"],
                    ["2024-03-01T03:00:05", "2024-03-01T03:30:05", "1.2", "temp"],
                    ["2024-03-01T03:30:05", "2024-03-01T03:45:05", "0.0", "temp"]])
        // CareLink: a Rate temp basal of 2 h (the real row of the v1.0.1 corpus, with a sensor reading).
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("carelink.csv")
        let text = CareLinkTempBasalTests.text.replacingOccurrences(of: "Bolus Volume Delivered (U)\n", with: "Bolus Volume Delivered (U),Sensor Glucose (mg/dL)\n")
            .replacingOccurrences(of: "1.45,Rate,02:00:00,,,\n", with: "1.45,Rate,02:00:00,,,,112\n")
        try E2E.write(text, to: csv)
        #expect(try steps(csv.path, ["--timezone", "America/Los_Angeles"], date: "2011-01-13")
                == [["2011-01-13T12:24:47", "2011-01-13T14:24:47", "1.45", "temp"]])
    }
}
