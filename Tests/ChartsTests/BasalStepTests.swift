import Charts
import Foundation
import HealthPipeCore
import Testing

/// The day view's basal: scheduled rates hold until the next change (the last one from the day
/// before runs into the day), a temporary rate runs its span or until the next temporary one, a
/// suspend is 0 U/h, everything clipped to the local day; the SVG tells each step's rate and span,
/// and the basal setting hides them with the basal markers.
@Suite struct BasalStepTests {
    let day = Fixture.day("2025-09-14")
    func at(_ h: Int, _ m: Int = 0) -> Int64 { day * 86_400 + Int64(h * 3600 + m * 60) - 3600 }  // UTC+01:00 local times

    func rate(_ start: Int64, _ end: Int64? = nil, _ u: Double) -> Measurement {
        Measurement(subject: Fixture.subject, metric: Symbol("basal_rate"), source: Symbol("pump"), start: start, end: end,
                    utcOffset: 3600, value: u, unit: Symbol("U/h"))
    }

    func view(_ rates: [Measurement], showBasal: Bool = true) throws -> DayView {
        let source = MemorySource(readings: [Fixture.reading(at(12), 110, offset: 3600)])
        source.basal = rates
        var s = ViewSettings()
        s.model = nil
        s.today = day
        s.showBasal = showBasal
        return try ChartLoader(source: source, subject: "t", settings: s).dayView(day)
    }

    @Test func scheduledRatesHoldTemporaryRatesRunTheirSpan() throws {
        let v = try view([rate(at(-2), nil, 0.8),          // yesterday 22:00: runs into the day
                          rate(at(6), nil, 1.1), rate(at(22), nil, 0.7),
                          rate(at(9), at(9, 30), 2.4),     // temp 09:00–09:30, replaced at 09:20
                          rate(at(9, 20), at(10), 0),      // a suspend
                          rate(at(23, 30), at(25), 1.5)])  // a temp past midnight: clipped
        let scheduled = v.basal.filter { !$0.temporary }, temporary = v.basal.filter(\.temporary)
        #expect(scheduled.map(\.rate) == [0.8, 1.1, 0.7])
        #expect(scheduled.map(\.startMinute) == [0, 360, 1320])
        #expect(scheduled.map(\.endMinute) == [360, 1320, 1440])
        #expect(temporary.map(\.rate) == [2.4, 0, 1.5])
        #expect(temporary.map(\.startMinute) == [540, 560, 1410])
        #expect(temporary.map(\.endMinute) == [560, 600, 1440])
        #expect(temporary[0].detail == "Temp basal 2.4 U/h 09:00–09:20 (20min)")
        #expect(temporary[1].detail.hasPrefix("Basal suspended (0 U/h) 09:20–10:00"))

        let svg = DaySVG(view: v).document()
        #expect(svg.components(separatedBy: "class=\"basal-step").count - 1 == 6)
        #expect(svg.contains("<title>Temp basal 2.4 U/h 09:00–09:20 (20min)</title>"))
        let json = v.json().jsonObject
        #expect((json["basal"] as? [[String: Any]])?.count == 6)
    }

    @Test func theBasalSettingHidesTheSteps() throws {
        let v = try view([rate(at(6), nil, 1.1), rate(at(9), at(10), 2)], showBasal: false)
        #expect(!DaySVG(view: v).document().contains("basal-step"))
        #expect((v.json().jsonObject["basal"] as? [Any])?.isEmpty == true)
    }
}
