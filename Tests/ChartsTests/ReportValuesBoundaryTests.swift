import Charts
import Foundation
import HealthPipeCore
import Testing

/// Issue 36: an older store's report values of ±1.7e308 made `chart report-values` spin (the
/// axis' span was infinite, so its tick step was never found). The axis now holds only values a
/// health value may have, and what lies beyond is drawn at its edge.
@Suite struct ReportValuesBoundaryTests {
    @Test func valuesBeyondAnyHealthValueKeepTheAxisFiniteAndTheChartIsDrawn() throws {
        let day: Int64 = 19_800
        let points = [1.7e308, -1.7e308, 37.5].enumerated().map { i, v in
            ReportValuesView.Point(utc: day * 86_400 + Int64(i) * 3_600, offset: 0, value: v, importance: 3, reportID: "r\(i)")
        }
        let view = ReportValuesView(subject: "default", metric: "custom_x", unit: "", firstDay: day - 6, lastDay: day,
                                    points: points, days: [], thresholds: [])
        let y = view.yRange
        try #require(y.min.isFinite && y.max.isFinite, "the axis is \(y)")
        #expect(y.min <= 37.5 && y.max >= 37.5 && y.max - y.min < 100)
        let started = Date()
        let svg = ReportValuesSVG(view: view).document()
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(svg.contains("</svg>") && !svg.contains("nan") && !svg.contains("=\"inf") && !svg.contains("=\"-inf"))
    }
}
