import Foundation
import Testing

/// The seed-004 graphs (a value over a week, reports per day), the page's report section, the
/// seed-002 day table with its filters and favourites, and the alerts list.
@Suite struct HealthLogViewsTests {
    @Test func aValueOverAWeekAndReportsPerDay() throws {
        let log = HealthLog()
        try log.ok(["import", HealthLogFilesTests.long])
        try log.settings(String(decoding: try Data(contentsOf: E2E.samples.appendingPathComponent("settings/health-log.yml")), as: UTF8.self))
        let r = try log.ok(["chart", "report-values", "--metric", "temperature", "--date", "2024-03-10"])
        let o = try #require(try HealthLog.objects(r.stdout).first)
        #expect(o["schema"] as? String == "healthpipe.chart.report-values" && o["version"] as? Int == 1)
        #expect(o["metric"] as? String == "body_temperature" && o["from"] as? String == "2024-03-04" && o["to"] as? String == "2024-03-10")
        let points = try #require(o["points"] as? [[String: Any]])
        #expect(points.count == Int(log.scalar("""
            SELECT count(*) FROM report_values v JOIN reports r ON r.id = v.report_id
             WHERE v.metric = 'body_temperature' AND date(r.start + r.utc_offset, 'unixepoch') BETWEEN '2024-03-04' AND '2024-03-10'
            """)))
        let days = try #require(o["days"] as? [[String: Any]])
        let stored = log.query("SELECT day, mean FROM report_days WHERE metric = 'body_temperature' AND day BETWEEN '2024-03-04' AND '2024-03-10' ORDER BY day")
        #expect(days.map { $0["date"] as! String } == stored.map { $0[0] })
        #expect(zip(days, stored).allSatisfy { abs(($0["mean"] as! Double) - Double($1[1])!) < 1e-9 })
        #expect((o["thresholds"] as? [[String: Any]])?.first?["above"] as? Double == 37.5)

        let perDay = try #require(try HealthLog.objects(try log.ok(["chart", "report-days", "--from", "2024-03-01", "--to", "2024-03-14"]).stdout).first)
        #expect(perDay["schema"] as? String == "healthpipe.chart.report-days" && perDay["total_reports"] as? Int == 32)
        let rows = try #require(perDay["days"] as? [[String: Any]])
        #expect(rows.count == 14 && rows.first { $0["date"] as? String == "2024-03-06" }?["reports"] as? Int == 3)
        #expect(rows.first { $0["date"] as? String == "2024-03-06" }?["max_importance"] as? Int == 5)

        let svg = log.dir.appendingPathComponent("week.svg"), bars = log.dir.appendingPathComponent("days.svg")
        try log.ok(["chart", "report-values", "--metric", "body_temperature", "--svg", svg.path])
        try log.ok(["chart", "report-days", "--svg", bars.path])
        let week = try String(contentsOf: svg, encoding: .utf8), perDaySVG = try String(contentsOf: bars, encoding: .utf8)
        #expect(week.hasPrefix("<svg") && week.contains("report-values-chart") && week.contains("7-day average (importance ≥ 4)"))
        #expect(perDaySVG.contains("report-days-chart") && perDaySVG.components(separatedBy: "class=\"report-day\"").count == 31)
        #expect(try log.run(["chart", "report-values", "--metric", "not a name!"]).code == 2)
    }

    @Test func thePageShowsTheReportGraphs() throws {
        let log = HealthLog()
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path
        #expect([0, 3].contains(try log.run(["import", clarity, "--quiet"]).code))
        let day = log.scalar("SELECT max(day) FROM daily_summaries WHERE metric = 'glucose'")
        try log.report("\(day) 08:00", ["body_temperature=37.2:3", "systolic=124:2"])
        try log.report("\(day) 20:00", ["body_temperature=37.9:4", "systolic=131:3"])
        let page = log.dir.appendingPathComponent("health.html")
        try log.ok(["page", "-o", page.path])
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<a href=\"#reports\">Reports</a>") && html.contains("<section id=\"reports\""))
        #expect(html.contains("report-values-chart") && html.contains("report-days-chart"))
        // A database without reports has no report section.
        let plain = HealthLog()
        #expect([0, 3].contains(try plain.run(["import", clarity, "--quiet"]).code))
        try plain.ok(["page", "-o", page.path])
        #expect(!(try String(contentsOf: page, encoding: .utf8)).contains("id=\"reports\""))
    }

    @Test func theDayTableFiltersAndFavourites() throws {
        let log = HealthLog()
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path
        #expect([0, 3].contains(try log.run(["import", clarity, "--quiet"]).code))
        let all = try #require(try HealthLog.objects(try log.ok(["days", "--json"]).stdout).first?["rows"] as? [[String: Any]])
        #expect(all.count == Int(log.scalar("SELECT count(*) FROM day_log")))
        let hypo = try #require(try HealthLog.objects(try log.ok(["days", "--hypo", "--json"]).stdout).first?["rows"] as? [[String: Any]])
        #expect(hypo.map { $0["date"] as! String } == log.query("SELECT day FROM day_log WHERE hypo = 1 ORDER BY day DESC").map { $0[0] })
        let last = log.scalar("SELECT max(day) FROM day_log")
        try log.ok(["add", "exercise", "--name", "Cycling", "--minutes", "45", "--at", "\(last) 17:00"])
        let both = try #require(try HealthLog.objects(try log.ok(["days", "--exercise", "--last", "3", "--json"]).stdout).first?["rows"] as? [[String: Any]])
        #expect(both.map { $0["date"] as! String } == [last])
        try log.ok(["favourite", "add", last, "--note", "long ride"])
        let text = try log.ok(["days", "--favourites"]).stdout
        #expect(text.split(separator: "\n").count == 1 && text.contains(last) && text.contains("★ long ride") && text.contains("exercise"))
        #expect(log.scalar("SELECT favourite FROM day_log WHERE day = '\(last)'") == "1")
        try log.ok(["favourite", "remove", last])
        #expect(try log.ok(["days", "--favourites"]).stdout.isEmpty)
        #expect(try log.run(["favourite", "add", "2024-02-30"]).code == 2)
        try log.expectExact()
    }

    @Test func storedAlertsAreListed() throws {
        let log = HealthLog()
        try log.ok(["import", HealthLogFilesTests.long])
        try log.settings(String(decoding: try Data(contentsOf: E2E.samples.appendingPathComponent("settings/health-log.yml")), as: UTF8.self))
        let alerts = try HealthLog.objects(try log.ok(["alerts", "list", "--json"]).stdout)
        // The fever of 5–9 March: one alert on the temperature's 7-day average (importance 4 readings).
        #expect(alerts.filter { $0["kind"] as? String == "average_above" }.map { $0["metric"] as! String } == ["body_temperature"])
        // Every day of the sample had its first report at 08:00: no reminder was missed.
        #expect(alerts.filter { $0["kind"] as? String == "reminder" }.isEmpty)
        try log.expectExact()
    }
}
