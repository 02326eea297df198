import Foundation
import HealthPipeTestSupport
import Testing

/// The app's days screen carries the page's trend charts (`MetricTrendsHTML`): a person with only
/// Apple Health data (the real iOS 12 export) opens /days on their last day of daily metrics, and
/// each chart's points are the store's daily rows — the steps chart the day totals.
@Suite struct AppTrendsTests {
    typealias T = AppPeopleTests

    @Test func theDaysScreenChartsTheStoredDailyMetrics() throws {
        let db = ServeProcess.tempDir().appendingPathComponent("apple.sqlite")
        let file = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/apple-health/apple-health-en-us-ios12.xml")
        let r = AppDatabase.run(ServeProcess.binary.path, ["import", file.path, "--db", db.path, "--subject", "sam", "--quiet"], environment: T.utc)
        #expect(r.code == 0, "\(r.output)")
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let html = try T().get(server.port, "/days")
        let section = try #require(html.components(separatedBy: "<section id=\"trends\"").dropFirst().first)
        let rows = AppMeterDayTests.sql(db, "SELECT day, total FROM daily_summaries WHERE subject = 'sam' AND metric = 'step_count' "
                                             + "AND day > date((SELECT max(day) FROM daily_summaries), '-90 days') ORDER BY day")
        // day_totals.py's totals of the export (Tests/Fixtures/real/apple-health/day_totals.json).
        #expect(rows == ["2018-05-08|1770.0", "2018-05-09|5476.0"], "\(rows)")
        let steps = try #require(section.components(separatedBy: "data-metric=\"step_count\"").dropFirst().first?.components(separatedBy: "</figure>").first)
        let drawn = steps.components(separatedBy: "<g class=\"trend-point\" data-day=\"").dropFirst().map { part in
            String(part.prefix(10)) + "|" + String(part.components(separatedBy: "data-value=\"")[1].prefix { $0 != "\"" })
        }
        #expect(drawn == rows)
        #expect(steps.contains("latest <b data-stat=\"latest\">5476</b>"))
    }
}
