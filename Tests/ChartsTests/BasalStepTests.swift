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

    /// The day's insulin is its total daily dose with the split (issue 38: "insulin doses 20.4 U" was
    /// the boluses alone): the rates' delivery, a temporary rate in place of the scheduled one, plus
    /// the boluses. Rates that leave hours uncovered give no total.
    @Test func theDaysInsulinIsTheTotalDailyDoseWithItsSplit() throws {
        let source = MemorySource(readings: [Fixture.reading(at(12), 110, offset: 3600)], events: [3.0, 2.0].enumerated().map { i, u in
            Event(subject: Fixture.subject, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pump"), start: at(8 + 4 * i),
                  utcOffset: 3600, insulin: u)
        })
        source.basal = [rate(at(-2), nil, 0.8), rate(at(6), nil, 1.1), rate(at(22), nil, 0.7), rate(at(9), at(9, 30), 2.4),
                        rate(at(9, 20), at(10), 0), rate(at(23, 30), at(25), 1.5)]
        var s = ViewSettings()
        s.model = nil
        s.today = day
        let v = try ChartLoader(source: source, subject: "t", settings: s).dayView(day)
        // 0.8 × 6 h + 1.1 × 16 h + 0.7 × 2 h = 23.8 U scheduled; 09:00–09:20 at 2.4 instead of 1.1 (+0.43),
        // 09:20–10:00 suspended (−0.73), 23:30–24:00 at 1.5 instead of 0.7 (+0.4): 23.9 U.
        let insulin = v.insulin
        #expect(insulin.bolus == 5)
        #expect(abs(insulin.basal - 23.9) < 1e-9, "\(insulin.basal)")
        #expect(insulin.rateMinutes == 1440)
        #expect(abs((insulin.total ?? 0) - 28.9) < 1e-9)
        var html = Markup(capacity: 64 * 1024)
        DayArticle(view: v, unit: .mgdL, isCurrent: true, link: { _ in nil }, offTitle: { _, _ in "" }).render(&html)
        #expect(html.text.contains("insulin <b>28.9 U</b> (bolus 5 U, basal 23.9 U)"), "\(html.text.suffix(600))")

        // Without the scheduled rate from the day before, 00:00–06:00 is unknown: no total.
        source.basal.removeFirst()
        let partial = try ChartLoader(source: source, subject: "t", settings: s).dayView(day)
        #expect(partial.insulin.rateMinutes == 1080 && partial.insulin.total == nil)
        var text = Markup(capacity: 64 * 1024)
        DayArticle(view: partial, unit: .mgdL, isCurrent: true, link: { _ in nil }, offTitle: { _, _ in "" }).render(&text)
        #expect(text.text.contains("bolus 5 U · basal rates recorded for 18h of the day (no day total)"), "\(text.text.suffix(600))")
    }
}
