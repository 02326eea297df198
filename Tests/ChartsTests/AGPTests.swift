import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

@Suite struct AGPTests {
    /// What the `daily` transform stores in glucose_agp / glucose_metrics for the same period.
    func dailyPeriodSet(_ readings: [Measurement], from: Int64, to: Int64) throws -> MetricSet {
        let daily = DailyTransform(hypoBelow: 72, hyperAbove: 180, per: .period(from: from, to: to))
        let ctx = StageContext.forTesting("daily", name: "d")
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
        // % time CGM active over the whole period, as the metric set says (iglu's active_percent with the period as range).
        #expect(view.statistics.activePercent == expected["active_percent_period"])
        #expect(view.statistics.tightRange == expected["titr_70_140_pct"])
        #expect(view.statistics.gri == expected["gri"])
        #expect(view.insufficientData != nil, "10 days are fewer than 14")
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

    /// Issue 22: 1 day of readings in a 14-day period said "14 days", "% time CGM is active 100.0%" and
    /// "… a day" with no notice. Now: days with data, active % over the whole period, a notice.
    @Test func aSparsePeriodSaysSoAndDoesNotSpreadTheReadings() throws {
        let (readings, _) = try Fixture.simglucose("child#001")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        let oneDay = readings.filter { CivilDate.floorDiv($0.start, 86_400) == first + 3 }
        let view = AGPBuilder.build(subject: "t", firstDay: first, lastDay: first + 13, readings: oneDay, unit: .mmolL)
        #expect(view.statistics.daysWithData == 1)
        let active = try #require(view.statistics.activePercent)
        #expect(active < 100 / 14.0 + 0.01 && active > 100 / 14.0 - 1)
        let notice = try #require(view.insufficientData)
        #expect(notice.contains("1 of 14 days with readings"))
        let svg = AGPSVG(view: view).document()
        #expect(svg.contains("class=\"data-notice insufficient\""))
        #expect(svg.contains("data-stat=\"active-percent\"") && svg.contains(">" + Fmt.fixed(active, 1) + "%<"))
        #expect(svg.contains(">1 of 14<"))
        #expect(svg.contains("a data day") && !svg.contains(" a day<"))
        // Tight range and the GRI with its zone.
        #expect(svg.contains("Time in tight range") && svg.contains("3.9–7.8 mmol/L"))
        let gri = try #require(view.statistics.gri)
        #expect(svg.contains(Fmt.fixed(gri, 1) + " · zone " + GRIZone.letter(gri)))
        let json = view.json().jsonObject
        #expect((json["insufficient_data"] as? String) == notice)
        #expect((json["statistics"] as? [String: Any])?["gri_zone"] as? String == GRIZone.letter(gri))

        // Fourteen full days: no notice, "a day".
        let full = AGPBuilder.build(subject: "t", firstDay: first, lastDay: first + 13, readings: readings, unit: .mmolL)
        #expect(full.statistics.daysWithData == 14)
        #expect(full.insufficientData == nil, "\(full.statistics.activePercent ?? -1)")
        let fullSVG = AGPSVG(view: full).document()
        #expect(!fullSVG.contains("insufficient") && fullSVG.contains("Enough data: 14 of 14 days"))
        #expect(!fullSVG.contains("a data day"))
    }

    @Test func griZones() {
        #expect([0, 20, 20.5, 40, 41, 60, 60.1, 80, 81, 100].map(GRIZone.letter) == ["A", "A", "B", "B", "C", "C", "D", "D", "E", "E"])
    }

    @Test func aPeriodWithoutReadingsIsAnEmptyReportNotACrash() throws {
        let view = AGPBuilder.build(subject: "t", firstDay: 100, lastDay: 113, readings: [], unit: .mmolL)
        #expect(view.statistics.readings == 0)
        #expect(view.percentiles.isEmpty)
        #expect(AGPSVG(view: view).document().contains("Not enough data for a profile"))
        #expect((view.json().jsonObject["percentiles"] as? [Any])?.isEmpty == true)
    }
}
