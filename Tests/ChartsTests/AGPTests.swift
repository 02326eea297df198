import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import Testing

@Suite struct AGPTests {
    /// What the `daily` transform stores in glucose_agp / glucose_metrics for the same period.
    func dailyPeriodSet(_ readings: [Measurement], from: Int64, to: Int64) throws -> MetricSet {
        let daily = DailyTransform(hypoBelow: 72, hyperAbove: 180, per: .period(from: from, to: to))
        let ctx = StageContext(name: "d", type: "daily", policy: .fail, quarantine: QuarantineWriter(path: "/dev/null"), progress: ProgressMeter())
        var sets: [MetricSet] = []
        try daily.process(RecordBatch(measurements: readings), context: ctx) { sets += $0.metricSets }
        try daily.finish(context: ctx) { sets += $0.metricSets }
        return try #require(sets.first)
    }

    @Test func percentilesAndStatisticsEqualTheDailyTransformsPeriodSet() throws {
        let (readings, _) = try Fixture.simglucose("adolescent#002")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        let (from, to) = (first + 2, first + 11)
        let expected = try dailyPeriodSet(readings, from: from, to: to)
        var settings = ViewSettings()
        settings.unit = .mgdL
        let view = try ChartLoader(source: MemorySource(readings: readings), subject: "t", settings: settings).agp(firstDay: from, lastDay: to)
        #expect(view.percentiles == expected.agp)
        #expect(view.percentiles.count == 288)
        #expect(view.statistics.mean == expected["mean"])
        #expect(view.statistics.gmi == expected["gmi_pct"])
        #expect(view.statistics.cv == expected["cv_pct"])
        #expect(view.statistics.activePercent == expected["active_percent"])
        #expect(view.ranges.map(\.percent) == ["tbr_lt54_pct", "tbr_54_69_pct", "tir_70_180_pct", "tar_181_250_pct", "tar_gt250_pct"].map { expected[$0]! })
        #expect(abs(view.ranges.reduce(0) { $0 + $1.percent } - 100) < 1e-9)
        #expect(view.days == 10)
        #expect(view.daily.map(\.day) == Array(from...to))

        let json = view.json().jsonObject
        #expect(json["schema"] as? String == "healthpipe.chart.agp")
        let rows = json["percentiles"] as! [[String: Any]]
        #expect(rows.count == 288)
        #expect(rows.first!["minute"] as? Int == 5)
        #expect(rows.last!["minute"] as? Int == 1440)
        let noon = expected.agp.first { $0.minuteOfDay == 720 }!
        let row = rows.first { $0["minute"] as? Int == 720 }!
        #expect(row["p50"] as? Double == (noon.p50 * 10).rounded() / 10)
    }

    @Test func aLongPeriodShowsItsLastFourteenDailyProfiles() throws {
        let (readings, _) = try Fixture.simglucose("child#001")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        let view = try ChartLoader(source: MemorySource(readings: readings), subject: "t", settings: ViewSettings())
            .agp(firstDay: first - 6, lastDay: first + 13)
        #expect(view.days == 20)
        #expect(view.daily.count == 14)
        #expect(view.daily.first?.day == first)
        #expect(view.statistics.daysWithData == 14)
        let svg = AGPSVG(view: view).document()
        #expect(svg.components(separatedBy: "class=\"percentile\"").count - 1 == 5)
        #expect(svg.components(separatedBy: "class=\"daily-profile\"").count - 1 == 14)
        #expect(svg.contains("The last 14 days of the period are shown."))
    }

    @Test func aPeriodWithoutReadingsIsAnEmptyReportNotACrash() throws {
        let view = AGPBuilder.build(subject: "t", firstDay: 100, lastDay: 113, readings: [], unit: .mmolL)
        #expect(view.statistics.readings == 0)
        #expect(view.percentiles.isEmpty)
        #expect(AGPSVG(view: view).document().contains("Not enough data for a profile"))
        #expect((view.json().jsonObject["percentiles"] as? [Any])?.isEmpty == true)
    }
}
