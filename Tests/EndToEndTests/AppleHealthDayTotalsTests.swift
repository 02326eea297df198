import Foundation
import Testing

/// The day totals of the real Apple Health exports (Tests/Fixtures/real/apple-health): for every
/// metric that adds up and every day, the stored `total` is what `day_totals.py` (an independent
/// Python reading of the same files) computes — each minute counted once, from its highest-priority
/// source — and `metrics` prints it. Four of the exports carry steps, energy or distance from two or
/// more sources; in the iOS 10 export lark, Human, Strava, Runtastic, 8fit and LFconnect overlap.
@Suite struct AppleHealthDayTotalsTests {
    static let folder = AppleHealthRealTests.folder

    struct Expected {
        var file: String
        var metric: String
        var day: String
        var records: Int
        var recorded: Double
        var total: Double
        var bySource: [String: Double]
    }

    static func expected() throws -> [Expected] {
        let data = try Data(contentsOf: folder.appendingPathComponent("day_totals.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [Expected] = []
        for f in try #require(root["files"] as? [[String: Any]]) {
            let file = try #require(f["file"] as? String)
            for (metric, days) in try #require(f["days"] as? [String: [String: [String: Any]]]) {
                for (day, v) in days {
                    out.append(Expected(file: file, metric: metric, day: day, records: try #require(v["records"] as? Int),
                                        recorded: try #require(v["recorded"] as? Double), total: try #require(v["total"] as? Double),
                                        bySource: try #require(v["by_source"] as? [String: Double])))
                }
            }
        }
        return out
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(b)) }

    @Test(arguments: ["apple-health-en-us-ios10-food.xml", "apple-health-en-us-ios12.xml", "apple-health-es-es-ios9-exportacion.zip",
                      "apple-health-ar-sa-ios16-tasdir.zip", "apple-health-en-fr-ios14-garmin.xml"])
    func storedDayTotalsEqualTheIndependentScript(file: String) throws {
        let expected = try Self.expected().filter { $0.file == file }
        #expect(expected.contains { $0.metric == "step_count" })
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(["import", Self.folder.appendingPathComponent(file).path, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        for e in expected {
            let row = E2E.query(db, "SELECT n, mean, total, total_sources FROM daily_summaries WHERE metric = '\(e.metric)' AND day = '\(e.day)'")
            let cells = try #require(row.first, "\(file) \(e.metric) \(e.day): no daily summary")
            #expect(cells.count == 4, "\(cells)")
            guard cells.count == 4 else { continue }
            #expect(Int(cells[0]) == e.records, "\(file) \(e.metric) \(e.day)")
            #expect(Self.close((Double(cells[1]) ?? .nan) * Double(e.records), e.recorded), "\(file) \(e.metric) \(e.day): recorded")
            #expect(Self.close(Double(cells[2]) ?? .nan, e.total), "\(file) \(e.metric) \(e.day): total \(cells[2]), expected \(e.total)")
            let sources = (try? JSONSerialization.jsonObject(with: Data(cells[3].utf8))) as? [String: Double] ?? [:]
            #expect(Set(sources.keys) == Set(e.bySource.keys), "\(file) \(e.metric) \(e.day): \(cells[3])")
            for (source, amount) in e.bySource { #expect(Self.close(sources[source] ?? .nan, amount), "\(file) \(e.metric) \(e.day) \(source)") }
        }
    }

    /// `metrics --metric step_count` prints each day's total, not the mean of the records.
    @Test func metricsPrintsTheDaysStepTotal() throws {
        let file = "apple-health-en-us-ios12.xml"
        let expected = try Self.expected().filter { $0.file == file && $0.metric == "step_count" }
        let r = try E2E.run(["metrics", "--input", Self.folder.appendingPathComponent(file).path, "--metric", "step_count", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == expected.count)
        for e in expected {
            let line = lines.first { $0["from"] as? String == e.day }
            #expect((line?["total"] as? Double).map { Self.close($0, e.total) } == true, "\(e.day): \(String(describing: line))")
        }
    }

    /// Where sources overlap the total is less than what they recorded together: the real overlaps exist.
    @Test func theRealExportsOverlap() throws {
        let overlapping = try Self.expected().filter { $0.total < $0.recorded - 1e-6 }
        #expect(Set(overlapping.map(\.metric)) == ["active_energy_burned", "distance_walking_running"])
    }
}

extension AppleHealthDayTotalsTests {
    /// The page's daily metrics table shows a day's steps as the total (5,476 on 9 May 2018 in the
    /// iOS 12 export), not the mean of its 30 records (182.5), and says which source counted.
    @Test func thePagesDailyTableShowsTheStepTotal() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite"), page = dir.appendingPathComponent("p.html")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = "apple-health-en-us-ios12.xml"
        let e = try #require(try Self.expected().first { $0.file == file && $0.metric == "step_count" && $0.day == "2018-05-09" })
        #expect(e.total == 5476 && e.records == 30)
        #expect(try E2E.run(["import", Self.folder.appendingPathComponent(file).path, "--db", db.path]).code == 0)
        let r = try E2E.run(["page", "--db", db.path, "--from", "2018-05-08", "--to", "2018-05-09", "-o", page.path])
        #expect(r.code == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let table = try #require(html.range(of: "<table class=\"metrics-table\">").map { String(html[$0.lowerBound...].prefix(while: { $0 != "\n" })) })
        #expect(table.contains("counted: Sam Phone 5476\">5476</span>"), "\(table)")
        #expect(!table.contains(">182.5<"))
    }
}

extension AppleHealthDayTotalsTests {
    /// `source_priority` in a pipeline puts a named source first. On 26 July 2016 of the iOS 10 export,
    /// Strava's 18 km walk (11:30–15:38) overlaps 8fit's 3 km (12:21–15:41): by default 8fit, first by
    /// name among the apps, wins the shared minutes (the day is day_totals.py's 13.517764 km); with
    /// Strava first its whole 18 km counts and 8fit keeps only its last three minutes.
    @Test func sourcePriorityInThePipelinePutsANamedSourceFirst() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = Self.folder.appendingPathComponent("apple-health-en-us-ios10-food.xml").path
        func distance(_ option: String) throws -> [String: Any] {
            let name = option.isEmpty ? "default" : "strava"
            let pipeline = dir.appendingPathComponent("\(name).yml"), out = dir.appendingPathComponent("\(name).ndjson")
            try E2E.write("""
                sources:
                  phone: { type: apple-health, path: '\(export)', subject: sam }
                transforms:
                  days: { type: daily, inputs: [phone]\(option) }
                sinks:
                  feed: { type: ndjson, inputs: [days], path: '\(out.path)' }
                """, to: pipeline)
            let r = try E2E.run(["run", pipeline.path])
            #expect(r.code == 0, "\(r.stderr)")
            let rows = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
                .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return try #require(rows.first { $0["metric"] as? String == "distance_walking_running" && $0["day"] as? String == "2016-07-26" })
        }
        let expected = try #require(try Self.expected().first {
            $0.file == "apple-health-en-us-ios10-food.xml" && $0.metric == "distance_walking_running" && $0.day == "2016-07-26"
        })
        let byDefault = try distance("")
        #expect(Self.close(byDefault["total"] as? Double ?? .nan, expected.total))
        let stravaFirst = try distance(", source_priority: [strava]")
        let counted = try #require(stravaFirst["total_sources"] as? [String: Double])
        #expect(Self.close(counted["Strava"] ?? .nan, 18))
        #expect(Self.close(counted["LFconnect"] ?? .nan, 6.85728))
        // 8fit's record is 12,000 s long; 15:38:34–15:41:41 is in no Strava minute from 15:39 on: 161 s of it.
        #expect(Self.close(counted["8fit"] ?? .nan, 3 * 161 / 12_000), "\(counted)")
    }
}
