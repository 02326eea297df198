import Charts
import Foundation
import HealthPipeCore
import Testing

@Suite struct PageTests {
    func page() throws -> (String, [DayView]) {
        let (readings, events) = try Fixture.simglucose("adult#001")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        var settings = ViewSettings()
        settings.today = first + 13
        let withNames = events.map { e -> Event in
            var e = e
            if e.kind == .meal { e.note = "Lunch <b>&</b> 'tea'" }
            return e
        }
        let loader = ChartLoader(source: MemorySource(readings: readings, events: withNames), subject: "adult#001", settings: settings)
        let days = try loader.dayViews((first + 4)...(first + 13))
        let page = HealthPage(subject: "adult#001", firstDay: first + 4, lastDay: first + 13, unit: .mmolL, showBasal: true, days: days,
                              agp: try loader.agp(firstDay: first + 4, lastDay: first + 13),
                              table: try loader.dayTable(firstDay: first, lastDay: first + 13), bands: days[0].bands, history: [],
                              generator: "test")
        return (page.html(), days)
    }

    @Test func thePageNeedsNothingOutsideItself() throws {
        let (html, _) = try page()
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none';"))
        #expect(!html.contains("http:") && !html.contains("https:"))
        #expect(!html.contains(" src="))
        #expect(!html.contains("@import"))
        // Every link stays inside the page; url(...) only names the page's own clip paths.
        for part in html.components(separatedBy: "href=\"").dropFirst() {
            #expect(part.hasPrefix("#") || part.hasPrefix("data:"), "link to \(part.prefix(40))")
        }
        for part in html.components(separatedBy: "url(").dropFirst() { #expect(part.hasPrefix("#"), "url(\(part.prefix(30))") }
    }

    @Test func everyDayIsDrawnOnTheServerAndTheLastOneOpensFirst() throws {
        let (html, days) = try page()
        #expect(html.components(separatedBy: "<article class=\"dayview").count - 1 == days.count)
        let current = html.components(separatedBy: "<article class=\"dayview current\"")
        #expect(current.count == 2)
        #expect(current[1].hasPrefix(" id=\"day-\(CivilDate.isoDate(fromDays: days.last!.day))\""))
        // One point per reading, server-side, in each of the day's two layouts (wide and phone).
        #expect(html.components(separatedBy: "<circle class=\"reading").count - 1 == 2 * days.reduce(0) { $0 + $1.points.count })
        #expect(html.components(separatedBy: "class=\"percentile\"").count - 1 == 5)
        // User text is escaped everywhere.
        #expect(!html.contains("<b>&</b>"))
        #expect(html.contains("Lunch &lt;b&gt;&amp;&lt;/b&gt; &#39;tea&#39;"))
        // The script is inline and small.
        let script = html.components(separatedBy: "<script>")[1].components(separatedBy: "</script>")[0]
        #expect(script.utf8.count < 6000)
    }
}
