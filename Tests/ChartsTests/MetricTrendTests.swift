import Charts
import Foundation
import HealthPipeCore
import Testing

/// The trend charts of the daily metrics: each day's value is what the catalogue says the metric
/// aggregates (a total for steps, never the mean of the records), every text is escaped.
@Suite struct MetricTrendTests {
    typealias Cell = DailyMetricsTable.Cell
    static let first = CivilDate.days(year: 2024, month: 3, day: 1)

    static func table() -> DailyMetricsTable {
        DailyMetricsTable(cells: [
            Cell(day: first, metric: "step_count", unit: "count", n: 30, mean: 182.5, min: 3, max: 900, total: 5476),
            Cell(day: first + 2, metric: "step_count", unit: "count", n: 10, mean: 50, min: 1, max: 200, total: 480),
            // A day summarised before totals were kept: no total, so no bar (never its mean).
            Cell(day: first + 3, metric: "step_count", unit: "count", n: 4, mean: 20, min: 1, max: 40),
            Cell(day: first + 1, metric: "resting_heart_rate", unit: "count/min", n: 1, mean: 58, min: 58, max: 58),
            Cell(day: first + 2, metric: "resting_heart_rate", unit: "count/min", n: 2, mean: 61, min: 60, max: 62),
            Cell(day: first + 2, metric: "x.<script>alert('1')</script>", unit: "a&b", n: 1, mean: 1, min: 1, max: 1),
            // Outside the period.
            Cell(day: first + 9, metric: "step_count", unit: "count", n: 1, mean: 1, min: 1, max: 1, total: 1),
        ])
    }

    static func points(_ html: Substring) -> [(day: String, value: Double)] {
        html.components(separatedBy: "<g class=\"trend-point\" data-day=\"").dropFirst().map { part in
            let day = String(part.prefix(10))
            let value = part.components(separatedBy: "data-value=\"")[1].prefix { $0 != "\"" }
            return (day, Double(value) ?? .nan)
        }
    }

    static func figure(_ html: String, _ metric: String) -> Substring? {
        guard let start = html.range(of: "<figure class=\"trend\" data-metric=\"\(metric)\"") else { return nil }
        let rest = html[start.lowerBound...]
        return rest[..<(rest.range(of: "</figure>")?.upperBound ?? rest.endIndex)]
    }

    @Test func aMetricThatAddsUpIsChartedByItsDayTotals() throws {
        let trends = MetricTrend.trends(Self.table(), firstDay: Self.first, lastDay: Self.first + 6)
        #expect(trends.map(\.metric) == ["step_count", "resting_heart_rate", "x.<script>alert('1')</script>"])
        let steps = try #require(trends.first)
        #expect(steps.isBars && steps.valueName == "day total")
        #expect(steps.points.map(\.value) == [5476, 480])
        #expect(steps.latest?.day == Self.first + 2)
        #expect(steps.average == 2978)
        let rhr = trends[1]
        #expect(!rhr.isBars && rhr.points.map(\.value) == [58, 61] && rhr.average == 59.5)
    }

    @Test func theSectionShowsLatestAverageAndAPointPerDayEscaped() throws {
        var m = Markup()
        MetricTrendsHTML(trends: MetricTrend.trends(Self.table(), firstDay: Self.first, lastDay: Self.first + 6)).render(&m)
        let html = m.text
        let steps = try #require(Self.figure(html, "step_count"))
        #expect(Self.points(steps).map(\.day) == ["2024-03-01", "2024-03-03"])
        #expect(Self.points(steps).map(\.value) == [5476, 480])
        #expect(steps.contains("latest <b data-stat=\"latest\">480</b>"))
        #expect(steps.contains("average <b data-stat=\"average\">2978</b>"))
        #expect(steps.contains("<title>Fri 1 Mar 2024: 5476 (day total, 30 record(s))</title>"))
        #expect(!steps.contains(">182.5"))
        let rhr = try #require(Self.figure(html, "resting_heart_rate"))
        #expect(rhr.contains("<title>Sun 3 Mar 2024: 61 /min (day mean of 2, lowest 60, highest 62)</title>"))
        #expect(rhr.contains("<path d=\"M"))
        // The hostile metric name and unit come out as text, never markup.
        #expect(!html.contains("<script>") && !html.contains("a&b"))
        #expect(html.contains("data-metric=\"x.&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;\""))
        #expect(html.contains("a&amp;b"))
    }

    /// A percentage stored as a fraction of one shows as the percent its unit says; small values keep
    /// two decimals (0.04 km is not "0 km"); the chart's data keeps the stored value.
    @Test func percentagesAndSmallValuesAreShownAsTheyAre() throws {
        let table = DailyMetricsTable(cells: [
            Cell(day: Self.first, metric: "body_fat_percentage", unit: "%", n: 1, mean: 0.215, min: 0.215, max: 0.215),
            Cell(day: Self.first, metric: "distance_walking_running", unit: "km", n: 3, mean: 0.0127, min: 0.01, max: 0.02, total: 0.038),
        ])
        var m = Markup()
        MetricTrendsHTML(trends: MetricTrend.trends(table, firstDay: Self.first, lastDay: Self.first + 6)).render(&m)
        let fat = try #require(Self.figure(m.text, "body_fat_percentage"))
        #expect(fat.contains("latest <b data-stat=\"latest\">21.5 %</b>"))
        #expect(Self.points(fat).map(\.value) == [0.215])
        let distance = try #require(Self.figure(m.text, "distance_walking_running"))
        #expect(distance.contains("latest <b data-stat=\"latest\">0.04 km</b>"))
    }

    @Test func thePageHasATrendsSectionOnlyWithDailyMetrics() throws {
        let (first, last) = (Self.first, Self.first + 6)
        var page = HealthPage(subject: "sam", firstDay: first, lastDay: last, unit: .mgdL, showBasal: false, days: [],
                              agp: AGPBuilder.build(subject: "sam", firstDay: first, lastDay: last, readings: [], unit: .mgdL),
                              table: DayTable(subject: "sam", firstDay: first, lastDay: last, unit: .mgdL, rows: []),
                              bands: ChartBands(scheme: .seeds), history: [], generator: "test")
        page.hasGlucose = false
        #expect(!page.html().contains("id=\"trends\""))
        page.dailyMetrics = Self.table()
        let html = page.html()
        #expect(html.contains("<a href=\"#trends\">Trends</a>"))
        let section = try #require(html.range(of: "<section id=\"trends\"")).lowerBound
        #expect(section < html.range(of: "<section id=\"metrics\"")!.lowerBound)
        #expect(html.components(separatedBy: "<figure class=\"trend\"").count - 1 == 3)
    }
}
