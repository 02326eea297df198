import Foundation
import Testing

/// `healthpipe chart` on a real store: every number a view shows is recomputed here with SQL
/// over `measurements`, `events`, `day_log` and `glucose_agp`.
@Suite struct ChartCommandTests {
    let mmol = 18.0156

    func chart(_ args: [String]) throws -> [String: Any] {
        let r = try E2E.run(["chart"] + args + ["--db", try ChartFixture.db().path])
        #expect(r.code == 0, "\(args): \(r.stderr)")
        return ChartFixture.json(r.stdout)
    }

    /// Runs a pipeline over the real Clarity sample: `rest` continues its `transforms:` section.
    func runPipeline(in dir: URL, _ rest: String) throws {
        let csv = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path
        let pipeline = dir.appendingPathComponent("pipeline.yml")
        try E2E.write("subject: demo\nsources:\n  cgm: { type: dexcom-clarity, path: '\(csv)' }\ntransforms:\n" + rest, to: pipeline)
        let run = try E2E.run(["run", pipeline.path, "--timezone", "Europe/London"])
        #expect(run.code == 0, "\(run.stderr)")
    }

    func close(_ a: Any?, _ b: Double, _ tolerance: Double = 0.0051) -> Bool {
        guard let a = a as? Double ?? (a as? Int).map(Double.init) else { return false }
        return abs(a - b) <= tolerance
    }

    @Test func dayViewAgreesWithTheStore() throws {
        let db = try ChartFixture.db(), day = ChartFixture.day
        let v = try chart(["day", "--date", day])
        #expect(v["schema"] as? String == "healthpipe.chart.day")
        #expect(v["version"] as? Int == 1)
        #expect(v["unit"] as? String == "mmol/L")
        let readings = E2E.query(db, "SELECT value FROM measurements WHERE metric = 'glucose' AND flags & 128 = 0 AND \(ChartFixture.onDay(day)) ORDER BY start")
        let series = v["series"] as! [[String: Any]]
        #expect(series.count == readings.count && readings.count > 250)
        for (point, row) in zip(series, readings) { #expect(close(point["value"], Double(row[0])! / mmol)) }

        let summary = v["summary"] as! [String: Any]
        let stats = E2E.query(db, "SELECT min(value), avg(value), max(value) FROM measurements WHERE metric = 'glucose' AND flags & 128 = 0 AND \(ChartFixture.onDay(day))")[0]
        #expect(close(summary["min"], Double(stats[0])! / mmol) && close(summary["mean"], Double(stats[1])! / mmol) && close(summary["max"], Double(stats[2])! / mmol))

        // The side views: min, mean and max of each of the three days before and after.
        let sides = v["side_views"] as! [String: Any]
        let all = (sides["previous"] as! [[String: Any]]) + (sides["next"] as! [[String: Any]])
        #expect(all.map { $0["date"] as! String } == [-3, -2, -1, 1, 2, 3].map { ChartFixture.day(day, plus: $0) })
        for side in all {
            let d = side["date"] as! String
            let s = E2E.query(db, "SELECT min(value), avg(value), max(value), count(*) FROM measurements WHERE metric = 'glucose' AND flags & 128 = 0 AND \(ChartFixture.onDay(d))")[0]
            #expect(close(side["min"], Double(s[0])! / mmol), "min of \(d)")
            #expect(close(side["mean"], Double(s[1])! / mmol), "mean of \(d)")
            #expect(close(side["max"], Double(s[2])! / mmol), "max of \(d)")
            #expect(side["readings"] as? Int == Int(s[3]))
        }

        // Every meal, exercise and insulin event of the day, with the details the seeds show.
        let events = v["events"] as! [[String: Any]]
        let stored = E2E.query(db, "SELECT kind, carbs_g, protein_g, fat_g, insulin_u, subtype FROM events WHERE kind IN ('meal','exercise','insulin') AND \(ChartFixture.onDay(day)) ORDER BY start")
        #expect(events.count == stored.count && stored.count >= 6)
        let meal = try #require(events.first { $0["name"] as? String == "Chicken sandwich" })
        #expect(meal["carbs_g"] as? Double == 52 && meal["protein_g"] as? Double == 28 && meal["fat_g"] as? Double == 14)
        #expect(meal["text"] as? String == "Chicken sandwich at 12:50: carbs 52 g, protein 28 g, fat 14 g")
        let ride = try #require(events.first { $0["kind"] as? String == "exercise" })
        #expect(ride["name"] as? String == "Cycling" && ride["duration_minutes"] as? Double == 45 && ride["intensity"] as? String == "medium")
        let insulin = events.filter { $0["kind"] as? String == "insulin" }
        #expect(insulin.count == stored.filter { $0[0] == "insulin" }.count)
        #expect(insulin.allSatisfy { ($0["units"] as? Double ?? 0) > 0 && ["bolus", "basal"].contains($0["type"] as? String ?? "") })
        #expect((v["episodes"] as! [[String: Any]]).map { $0["name"] as! String } == ["stress"])

        // The day is complete (last reading 23:57): a forecast would lie past 24:00, so there is none.
        #expect(v["forecast"] is NSNull)
        // The last day ends at 18:52: its forecast starts at that reading, six points five minutes apart, inside the day.
        let last = try chart(["day", "--date", ChartFixture.lastDay])
        let forecast = try #require(last["forecast"] as? [String: Any])
        #expect(forecast["model"] as? String == "ridge")
        let lastLocal = E2E.scalar(db, "SELECT datetime(max(start) + 3600, 'unixepoch') FROM measurements WHERE metric = 'glucose' AND \(ChartFixture.onDay(ChartFixture.lastDay))")
        #expect((forecast["issued_at"] as? String)?.replacingOccurrences(of: "T", with: " ") == lastLocal)
        let points = forecast["points"] as! [[String: Any]]
        #expect(points.count == 6 && forecast["shift"] == nil)  // no shifted lines: the forecaster's ForecastEnvelope (issue 36)
        #expect(points.allSatisfy { ($0["minute"] as? Double ?? 9999) <= 1440 })
        let nav = v["navigation"] as! [String: Any]
        #expect(nav["previous"] as? String == "1961-04-19" && nav["next"] as? String == "1961-04-21")
        #expect(nav["first"] as? String == ChartFixture.firstDay && nav["last"] as? String == ChartFixture.lastDay)
    }

    @Test func basalOffAndMilligrams() throws {
        let db = try ChartFixture.db(), day = ChartFixture.day
        let v = try chart(["day", "--date", day, "--basal", "off", "--unit", "mg/dL", "--model", "ar2"])
        let basal = Int(E2E.scalar(db, "SELECT count(*) FROM events WHERE kind = 'insulin' AND subtype = 'basal' AND \(ChartFixture.onDay(day))"))!
        #expect(basal > 0)
        let events = v["events"] as! [[String: Any]]
        #expect(!events.contains { $0["type"] as? String == "basal" })
        #expect((v["settings"] as! [String: Any])["basal"] as? Bool == false)
        #expect((v["y"] as! [String: Any])["max"] as? Int == 360)
        let first = Double(E2E.scalar(db, "SELECT value FROM measurements WHERE metric = 'glucose' AND \(ChartFixture.onDay(day)) ORDER BY start LIMIT 1"))!
        #expect(close((v["series"] as! [[String: Any]])[0]["value"], first, 0.051))
        let last = try chart(["day", "--date", ChartFixture.lastDay, "--model", "ar2"])
        #expect((last["forecast"] as? [String: Any])?["model"] as? String == "ar2")
    }

    @Test func agpAgreesWithGlucoseAgpAndTheReadings() throws {
        // A pipeline stores the readings and the period's AGP (daily per: period), as a user would.
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("agp.sqlite")
        try runPipeline(in: dir, """
              days: { type: daily, inputs: [cgm], per: period, from: 1961-04-12, to: 1961-04-25 }
            sinks:
              db: { type: sqlite, inputs: [cgm, days], path: '\(db.path)' }
            """)
        let r = try E2E.run(["chart", "agp", "--db", db.path, "--from", "1961-04-12", "--to", "1961-04-25", "--unit", "mg/dL"])
        #expect(r.code == 0, "\(r.stderr)")
        let v = ChartFixture.json(r.stdout)
        #expect(v["schema"] as? String == "healthpipe.chart.agp" && v["days"] as? Int == 14)

        let rows = E2E.query(db, "SELECT minute_of_day, p05, p25, p50, p75, p95, n FROM glucose_agp WHERE subject = 'demo' AND period_start = '1961-04-12' AND period_end = '1961-04-25'")
        #expect(rows.count == 288)
        let percentiles = v["percentiles"] as! [[String: Any]]
        #expect(percentiles.count == rows.count)
        var byMinute: [Int: [String: Any]] = [:]
        for p in percentiles { byMinute[p["minute"] as! Int] = p }
        for row in rows {
            let minute = Int(row[0])! == 0 ? 1440 : Int(row[0])!
            let p = try #require(byMinute[minute])
            for (i, key) in ["p5", "p25", "p50", "p75", "p95"].enumerated() { #expect(close(p[key], Double(row[i + 1])!, 0.051), "\(key) at \(minute)") }
            #expect(p["days"] as? Int == Int(row[6]))
        }

        // Statistics and time in ranges from the readings themselves.
        let period = "date(start + utc_offset, 'unixepoch') BETWEEN '1961-04-12' AND '1961-04-25' AND metric = 'glucose' AND flags & 128 = 0"
        let s = E2E.query(db, """
            SELECT avg(value), 100.0 * sum(value < 54) / count(*), 100.0 * sum(value >= 54 AND value < 70) / count(*),
                   100.0 * sum(value BETWEEN 70 AND 180) / count(*), 100.0 * sum(value > 180 AND value <= 250) / count(*),
                   100.0 * sum(value > 250) / count(*), count(*) FROM measurements WHERE \(period)
            """)[0].map { Double($0)! }
        let stats = v["statistics"] as! [String: Any]
        #expect(close(stats["mean"], s[0], 0.051))
        #expect(stats["readings"] as? Int == Int(s[6]))
        #expect(close(stats["gmi_percent"], 3.31 + 0.02392 * s[0], 0.051))
        let ranges = v["ranges"] as! [[String: Any]]
        #expect(ranges.map { $0["name"] as! String } == ["very_low", "low", "in_range", "high", "very_high"])
        for (i, range) in ranges.enumerated() { #expect(close(range["percent"], s[i + 1], 0.0051), "\(range["name"]!)") }
        let stored = E2E.scalar(db, "SELECT value FROM glucose_metrics WHERE subject = 'demo' AND period_start = '1961-04-12' AND period_end = '1961-04-25' AND name = 'tir_70_180_pct'")
        #expect(close(ranges[2]["percent"], Double(stored)!, 0.0051))
    }

    @Test func dayTableFiltersAgreeWithDayLog() throws {
        let db = try ChartFixture.db()
        let range = "day BETWEEN '\(ChartFixture.firstDay)' AND '\(ChartFixture.lastDay)' AND subject = 'demo'"
        func dates(_ v: [String: Any]) -> [String] { (v["rows"] as! [[String: Any]]).map { $0["date"] as! String } }
        func sql(_ filter: String) -> [String] { E2E.query(db, "SELECT day FROM day_log WHERE \(range) AND \(filter) ORDER BY day DESC").map { $0[0] } }
        let bounds = ["--from", ChartFixture.firstDay, "--to", ChartFixture.lastDay]

        let all = try chart(["days"] + bounds)
        #expect(all["schema"] as? String == "healthpipe.chart.days")
        #expect(dates(all) == sql("1"))
        for row in all["rows"] as! [[String: Any]] {
            let d = E2E.query(db, "SELECT low, avg, high, hypo, hyper, exercise, stress, favourite FROM day_log WHERE subject = 'demo' AND day = '\(row["date"]!)'")[0]
            #expect(close(row["low"], Double(d[0])! / mmol) && close(row["avg"], Double(d[1])! / mmol) && close(row["high"], Double(d[2])! / mmol))
            #expect(row["hypo"] as? Bool == (d[3] == "1") && row["hyper"] as? Bool == (d[4] == "1"))
            #expect(row["exercise"] as? Bool == (d[5] == "1") && row["stress"] as? Bool == (d[6] == "1") && row["favourite"] as? Bool == (d[7] == "1"))
        }
        let hyperFree = try chart(["days", "--filter", "stress"] + bounds)
        #expect(dates(hyperFree) == sql("stress = 1") && !sql("stress = 1").isEmpty)
        #expect(dates(try chart(["days", "--filter", "exercise", "--filter", "hypo"] + bounds)) == sql("exercise = 1 AND hypo = 1"))
        #expect(dates(try chart(["days", "--favourites"] + bounds)) == ["1961-04-23", "1961-04-19"])
        #expect(dates(try chart(["days", "--last", "5"] + bounds)) == sql("day > '1961-04-20'"))
    }

    @Test func historyIsWhatTheHistoryCommandCharts() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("brush.sqlite")
        let replay = try E2E.run(["stream", "--replay", E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path,
                                  "--start", "2026-01-07T07:30:00Z", "--db", db.path])
        #expect(replay.code == 3, "the capture's damaged samples are quarantined: \(replay.stderr)")
        let h = try E2E.run(["history", "--db", db.path, "--today", "2026-01-08", "--period", "month", "--json"])
        let c = try E2E.run(["chart", "history", "--db", db.path, "--date", "2026-01-08", "--period", "month"])
        #expect(c.code == 0, "\(c.stderr)")
        let history = ChartFixture.json(h.stdout), chart = ChartFixture.json(c.stdout)
        #expect(chart["schema"] as? String == "healthpipe.chart.history")
        #expect(NSArray(array: history["buckets"] as! [Any]).isEqual(to: chart["buckets"] as! [Any]))
        #expect(chart["sessions"] as? Int == 2)
        // Without --date the period holding the newest session is shown.
        #expect(ChartFixture.json(try E2E.run(["chart", "history", "--db", db.path]).stdout)["sessions"] as? Int == 2)
        let svg = dir.appendingPathComponent("h.svg")
        #expect(try E2E.run(["chart", "history", "--db", db.path, "--svg", svg.path]).code == 0)
        #expect(try String(contentsOf: svg, encoding: .utf8).components(separatedBy: "class=\"history-bar\"").count - 1 == 7)
    }

    @Test func svgFilesAndMistakes() throws {
        let db = try ChartFixture.db()
        let dir = E2E.tempDir()
        for view in ["day", "agp", "days"] {
            let out = dir.appendingPathComponent("\(view).svg")
            let r = try E2E.run(["chart", view, "--db", db.path, "--svg", out.path])
            #expect(r.code == 0 && r.stdout.isEmpty, "\(view): \(r.stderr)")
            let svg = try String(contentsOf: out, encoding: .utf8)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(svg.hasSuffix("</svg>\n"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["agp.svg", "day.svg", "days.svg"])
        // A folder where the file should go is never replaced.
        let folder = dir.appendingPathComponent("folder.svg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let refused = try E2E.run(["chart", "day", "--db", db.path, "--svg", folder.path])
        #expect(refused.code == 1 && refused.stderr.contains("it is a directory"))

        #expect(try E2E.run(["chart", "week", "--db", db.path]).code == 2)
        #expect(try E2E.run(["chart", "day", "--db", db.path, "--date", "1961-02-30"]).code == 2)
        #expect(try E2E.run(["chart", "day", "--db", db.path, "--unit", "kelvin"]).code == 2)
        #expect(try E2E.run(["chart", "days", "--db", db.path, "--filter", "happy"]).code == 2)
        let missing = try E2E.run(["chart", "day", "--db", dir.appendingPathComponent("none.sqlite").path])
        #expect(missing.code == 1 && missing.stderr.contains("no such database"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none.sqlite").path))
        let other = dir.appendingPathComponent("other.sqlite")
        try ChartFixture.exec(other, "CREATE TABLE notes (text TEXT)")
        let foreign = try E2E.run(["chart", "day", "--db", other.path])
        #expect(foreign.code == 1 && foreign.stderr.contains("not a HealthPipe database"))
        let nobody = try E2E.run(["chart", "day", "--db", db.path, "--subject", "nobody"])
        #expect(nobody.code == 1 && nobody.stderr.contains("subjects with glucose: demo"))
        // A day without readings is an empty view, not an error.
        let empty = try chart(["day", "--date", "1961-05-20"])
        #expect((empty["series"] as! [Any]).isEmpty && empty["forecast"] is NSNull)
    }

    @Test func theChartSinkWritesWhatChartPrints() throws {
        let dir = E2E.tempDir()
        try runPipeline(in: dir, """
              bands: { type: classify, inputs: [cgm], preset: seeds }
              daily: { type: daily, inputs: [bands] }
            sinks:
              db: { type: sqlite, inputs: [bands, daily], path: store.sqlite }
              charts: { type: chart, inputs: [bands, daily], views: [day, agp, days], path: out/charts/ }
            """)
        let folder = dir.appendingPathComponent("out/charts/demo")
        let days = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("day").path).sorted()
        #expect(days.count == 14 && days.first == "1961-04-12.json" && days.last == "1961-04-25.json")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("agp/1961-04-12_1961-04-25.json").path))
        let table = ChartFixture.json(try String(contentsOf: folder.appendingPathComponent("days.json"), encoding: .utf8))
        #expect(table["total_days"] as? Int == 14)
        for day in ["1961-04-12", "1961-04-20", "1961-04-25"] {
            let streamed = ChartFixture.json(try String(contentsOf: folder.appendingPathComponent("day/\(day).json"), encoding: .utf8))
            let stored = try E2E.run(["chart", "day", "--db", dir.appendingPathComponent("store.sqlite").path, "--date", day])
            let fromStore = ChartFixture.json(stored.stdout)
            for key in fromStore.keys where key != "navigation" {
                #expect((fromStore[key] as? NSObject) == (streamed[key] as? NSObject), "\(key) of \(day)")
            }
        }
    }
}
