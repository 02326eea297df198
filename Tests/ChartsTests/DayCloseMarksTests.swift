@testable import Charts
import HealthPipeCore
import Testing

/// Issue 38 item 2 on the day chart: no dose hidden under another (a 3.8 U dual bolus at 12:08 under
/// the 2.2 U part at 12:11), close meal labels not dropped, and the day's pump alarms and device
/// events drawn on the time axis — close marks gathered into one (`CloseMarks`), whose tooltip lists
/// each, in the wide chart and the phone's. Also the Now screen's numbers (`NowView`).
@Suite struct DayCloseMarksTests {
    let day = Fixture.day("2024-03-10")
    let s = Fixture.subject

    func at(_ h: Int64, _ m: Int64) -> Int64 { day * 86_400 + h * 3600 + m * 60 }

    func readings() -> [Measurement] {
        (0..<288).map { i in Fixture.reading(day * 86_400 + Int64(i) * 300, 100 + Double(i % 40)) }
    }

    func view(_ events: [Event], readings: [Measurement]? = nil) throws -> DayView {
        var settings = ViewSettings()
        settings.model = nil
        settings.today = day + 1
        return try ChartLoader(source: MemorySource(readings: readings ?? self.readings(), events: events), subject: "t", settings: settings).dayView(day)
    }

    static func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The drawn lane items (`<g class="event …">…</g>`) with their data-count (1 when alone).
    static func items(_ svg: String, kind: String) -> [(count: Int, body: String)] {
        svg.components(separatedBy: "<g class=\"event ").dropFirst().filter { $0.contains("data-kind=\"\(kind)\"") }.map { part in
            let n = part.range(of: #"data-count="(\d+)""#, options: .regularExpression).map { Int(part[$0].dropFirst(12).dropLast())! } ?? 1
            return (n, part.components(separatedBy: "</g>")[0])
        }
    }

    @Test func closeDosesAndMealsAreOneMarkThatListsEach() throws {
        let v = try view([
            Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pump"), start: at(12, 8), utcOffset: 0, insulin: 3.8),
            Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pump"), start: at(12, 11), utcOffset: 0, insulin: 2.2),
            Event(subject: s, kind: .meal, source: Symbol("app"), start: at(12, 5), utcOffset: 0, carbs: 45, note: "Lunch"),
            Event(subject: s, kind: .meal, source: Symbol("app"), start: at(12, 14), utcOffset: 0, carbs: 20, note: "Dessert"),
            // Far from the others: its own mark.
            Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pump"), start: at(18, 0), utcOffset: 0, insulin: 5),
        ])
        for layout in [DayLayout.wide, .compact] {
            let svg = DaySVG(view: v, inPage: true, layout: layout).element()
            let doses = Self.items(svg, kind: "insulin"), meals = Self.items(svg, kind: "meal")
            #expect(doses.map(\.count) == [2, 1], "\(layout.idSuffix)")
            #expect(doses[0].body.contains("<title>2 doses 12:08–12:11: Bolus insulin at 12:08: 3.8 U; Bolus insulin at 12:11: 2.2 U</title>"),
                    "\(doses[0].body.prefix(300))")
            #expect(doses[0].body.contains(">6 U</text>"), "the group's label is its total")
            #expect(meals.map(\.count) == [2])
            #expect(meals[0].body.contains("Lunch at 12:05: carbs 45 g") && meals[0].body.contains("Dessert at 12:14: carbs 20 g"))
            #expect(meals[0].body.contains(">65 g</text>"))
            // Every marker of the day is in some drawn item.
            #expect((doses + meals).map(\.count).reduce(0, +) == v.markers.count)
        }
    }

    /// Marks closer than a mark is wide are gathered; the drawn ones are always that far apart.
    @Test func closeMarksRunsKeepDrawnMarksApart() {
        #expect(CloseMarks.runs([Double]()) == [])
        #expect(CloseMarks.runs([0, 5, 11.9, 12, 30, 41, 60]) == [0..<3, 3..<4, 4..<6, 6..<7])
    }

    /// A check and its confirmation a minute later (the 780G's 03:53 and 03:54) are one diamond listing
    /// both; a check a minute from one of a very different value keeps its own.
    @Test func closeChecksAreOneDiamondThatListsEach() throws {
        var settings = ViewSettings()
        settings.model = nil
        settings.today = day + 1
        let source = MemorySource(readings: [])
        source.checkList = [Fixture.reading(at(3, 53), 83, source: "pump"), Fixture.reading(at(3, 54), 83, source: "pump"),
                            Fixture.reading(at(3, 55), 250, source: "meter")]
        let v = try ChartLoader(source: source, subject: "t", settings: settings).dayView(day)
        for layout in [DayLayout.wide, .compact] {
            let svg = DaySVG(view: v, inPage: true, layout: layout).element()
            let marks = svg.components(separatedBy: "<g class=\"check-point\"").dropFirst().map { String($0.components(separatedBy: "</g>")[0]) }
            #expect(marks.count == 2, "\(layout.idSuffix)")
            #expect(marks[0].hasPrefix(" data-count=\"2\"><title>03:53 · BG check 4.6 mmol/L · pump; 03:54 · BG check 4.6 mmol/L · pump</title>"), "\(marks[0])")
            #expect(marks[1].hasPrefix("><title>03:55 · BG check 13.9 mmol/L · meter</title>"))
        }
        #expect(CloseMarks.runs([(x: 0, y: 0), (x: 1, y: 1), (x: 2, y: 30), (x: 20, y: 30)]) == [0..<2, 2..<3, 3..<4])
    }

    @Test func alarmsAndDeviceEventsSitOnTheTimeAxis() throws {
        let v = try view([
            Event(subject: s, kind: .alert, subtype: Symbol("low glucose"), source: Symbol("pump"), start: at(3, 10), utcOffset: 0, note: "below 55"),
            Event(subject: s, kind: .alert, subtype: Symbol("low glucose"), source: Symbol("pump"), start: at(3, 12), utcOffset: 0),
            Event(subject: s, kind: .device, subtype: Symbol("Suspended"), source: Symbol("pump"), start: at(9, 0), utcOffset: 0),
            Event(subject: s, kind: .device, subtype: Symbol("Resumed"), source: Symbol("pump"), start: at(15, 30), utcOffset: 0),
            // A note is listed under the chart, not drawn on the axis.
            Event(subject: s, kind: .note, source: Symbol("app"), start: at(10, 0), utcOffset: 0, note: "party"),
        ])
        for layout in [DayLayout.wide, .compact] {
            let svg = DaySVG(view: v, inPage: true, layout: layout).element()
            let marks = svg.components(separatedBy: "<g class=\"axis-event ").dropFirst().map { String($0.components(separatedBy: "</g>")[0]) }
            #expect(marks.count == 3, "\(layout.idSuffix)")
            #expect(marks[0].hasPrefix("alarm\" data-count=\"2\""))
            #expect(marks[0].contains("<title>2 events 03:10–03:12: 03:10 Alarm: Low glucose — below 55; 03:12 Alarm: Low glucose</title>"), "\(marks[0])")
            #expect(marks[1].hasPrefix("device\" data-count=\"1\"") && marks[1].contains("<title>09:00 Suspended</title>"))
            #expect(marks[2].contains("<title>15:30 Resumed</title>"))
            #expect(marks.allSatisfy { $0.contains("tabindex=\"0\"") })
        }
        // A day without any draws none.
        #expect(!DaySVG(view: try view([])).element().contains("axis-event"))
    }

    // MARK: Now

    @Test func nowGivesTheLatestValueItsAgeTrendAndDelta() throws {
        // Readings every 5 minutes rising 10 mg/dL each (2 mg/dL per minute: "rising").
        let rising = (0..<100).map { i in Fixture.reading(at(8, 0) + Int64(i) * 300, 80 + Double(i) * 10) }
        let v = try view([Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pump"), start: at(9, 0), utcOffset: 0, insulin: 4),
                          Event(subject: s, kind: .meal, source: Symbol("app"), start: at(9, 20), utcOffset: 0, carbs: 50)],
                         readings: Array(rising.prefix(13)))
        let last = at(9, 0)
        let now = NowView(days: [v], today: day, now: last + 12 * 60)
        #expect(now.latest?.utc == last && now.latest?.mgdl == 200 && now.age == 720 && !now.isStale)
        #expect(NowView.ageText(seconds: now.age!) == "12 min ago")
        #expect(now.delta == 10 && now.trend == NowView.Trend(arrow: "↑", words: "rising"))
        #expect(now.deltaText == "+0.6 mmol/L")
        #expect(now.lastDose?.insulin == 4 && now.lastMeal == nil, "a meal after now is not the last one")
        // 80…200 mg/dL: 70–180 is in range for readings 80…180 (11 of 13).
        #expect(now.today.inRange == 11 && now.today.count == 13)

        // 16 minutes on, the same reading is no current value: no arrow, no delta.
        let stale = NowView(days: [v], today: day, now: last + 16 * 60)
        #expect(stale.isStale && stale.trend == nil && stale.deltaText == nil)
        #expect(NowView.ageText(seconds: stale.age!) == "16 min ago")
        #expect(NowView.ageText(seconds: 3 * 3600 + 5 * 60) == "3 h 5 min ago" && NowView.ageText(seconds: 30) == "just now")
        #expect(NowView.ageText(seconds: 3 * 86_400) == "3 days ago")
    }

    @Test func nowOfAMeterUserIsTheirLastCheck() throws {
        var settings = ViewSettings()
        settings.model = nil
        settings.today = day
        let source = MemorySource(readings: [])
        source.checkList = [Fixture.reading(at(7, 0), 110), Fixture.reading(at(12, 0), 250)]
        let v = try ChartLoader(source: source, subject: "t", settings: settings).dayView(day)
        let now = NowView(days: [v], today: day, now: at(12, 5))
        #expect(now.latest?.isCheck == true && now.latest?.mgdl == 250 && !now.isStale)
        #expect(now.trend == nil, "no trend from finger sticks")
        #expect(now.today.count == 2 && now.today.inRange == 1 && now.today.checks)
        #expect(now.band?.level == 2 || now.band?.level == 1)
    }
}
