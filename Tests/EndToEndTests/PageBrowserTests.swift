import Foundation
import Testing

/// `healthpipe page` in a real browser: headless chromium loads the page from a local server that
/// logs every request, dumps the DOM after its script ran (or with JavaScript off) and takes
/// screenshots. The counts are checked against SQL over the store.
@Suite(.serialized) struct PageBrowserTests {
    struct Page {
        var file: URL
        var server: LocalHTTPServer
    }

    func page(_ extra: [String] = []) throws -> Page {
        let db = try ChartFixture.db()
        let out = E2E.tempDir().appendingPathComponent("health.html")
        let r = try E2E.run(["page", "--db", db.path, "--from", ChartFixture.firstDay, "--to", ChartFixture.lastDay, "-o", out.path] + extra)
        #expect(r.code == 0, "\(r.stderr)")
        return Page(file: out, server: try LocalHTTPServer(serving: out, at: "/health.html"))
    }

    /// The elements inside the `<article id="day-…">` of one day in a DOM dump.
    /// A day's article: its wide chart (`compact: false`) or its phone layout with the side strip.
    func article(_ dom: String, _ day: String, compact: Bool = false) -> String {
        guard let start = dom.range(of: " id=\"day-\(day)\" data-date") else { return "" }
        let rest = dom[start.lowerBound...]
        let whole = rest[..<(rest.range(of: "</article>")?.lowerBound ?? rest.endIndex)]
        let parts = whole.components(separatedBy: "<div class=\"day-compact\">")
        return compact ? (parts.count > 1 ? parts[1] : "") : parts[0]
    }

    func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func theDayAsTheBrowserShowsIt() throws {
        let db = try ChartFixture.db(), day = ChartFixture.day
        let p = try page()
        defer { p.server.stop() }
        let run = try Chromium.run(p.server.url + "#day-" + day, ["--dump-dom"], origin: p.server.origin)
        let dom = run.stdout
        #expect(dom.contains("<html lang=\"en\" class=\"js\""), "the page's script did not run")
        // The page asked for nothing: not from the server, not from anywhere else.
        #expect(p.server.requests == ["/health.html"])
        #expect(run.pageRequests.isEmpty, "the page requested \(run.pageRequests)")

        let a = article(dom, day)
        #expect(dom.contains("<article class=\"dayview shown\" id=\"day-\(day)\""), "navigation by address did not open \(day)")
        let readings = Int(E2E.scalar(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose' AND flags & 128 = 0 AND \(ChartFixture.onDay(day))"))!
        #expect(count(a, "<circle class=\"reading") == readings)
        let events = E2E.query(db, "SELECT kind FROM events WHERE kind IN ('meal','exercise','insulin') AND \(ChartFixture.onDay(day))")
        #expect(count(a, "<g class=\"event ") == events.count)
        #expect(count(a, "data-kind=\"meal\"") == events.filter { $0[0] == "meal" }.count)
        #expect(a.contains("<title>Porridge with berries at 07:40: carbs 45 g, protein 12 g, fat 8 g</title>"))
        #expect(a.contains("<title>Cycling at 08:30: 45min, medium intensity</title>"))
        #expect(a.contains("<title>Pasta &amp; \"sauce\" &lt;home&gt; at 18:35: carbs 78 g, protein 30 g, fat 22 g</title>"))
        #expect(a.range(of: #"<title>Basal insulin at \d\d:\d\d: \d+(\.\d+)? U</title>"#, options: .regularExpression) != nil)
        // The phone's layout of the day draws the same readings and markers, the six side days as a strip.
        let phone = article(dom, day, compact: true)
        #expect(count(phone, "<circle class=\"reading") == readings && count(phone, "<g class=\"event ") == events.count)
        let strip = phone.range(of: "<ol class=\"side-strip\"").flatMap { start in phone[start.lowerBound...].range(of: "</ol>").map { String(phone[start.lowerBound..<$0.upperBound]) } } ?? ""
        #expect(count(phone, "<ol class=\"side-strip\"") == 1 && count(strip, "</li>") == 6 && !phone.contains("class=\"side-day\""))
        // The six side views, each with its range bar.
        #expect(count(a, "<g class=\"side-day\"") == 6)
        #expect(count(a, "<g class=\"range-bar\">") == 6)
        // The day ends at 23:57: no forecast point would lie before 24:00. The last day ends at 18:52: six.
        #expect(count(a, "<circle class=\"forecast-point\"") == 0)
        #expect(count(article(dom, ChartFixture.lastDay), "<circle class=\"forecast-point\"") == 6)
        // The AGP's five percentile curves.
        #expect(count(dom, "<path class=\"percentile\"") == 5)
        for p in ["5", "25", "50", "75", "95"] { #expect(dom.contains("<path class=\"percentile\" data-p=\"\(p)\"")) }
        #expect(count(dom, "<g class=\"daily-profile\"") == 14)
    }

    @Test func theDayTableAfterAFilter() throws {
        let db = try ChartFixture.db()
        let p = try page()
        defer { p.server.stop() }
        let range = "subject = 'demo' AND day BETWEEN '\(ChartFixture.day(ChartFixture.lastDay, plus: -89))' AND '\(ChartFixture.lastDay)'"
        for (hash, filter) in [("hypo", "hypo = 1"), ("stress", "stress = 1"), ("exercise&last=7", "exercise = 1 AND day > '1961-04-18'"),
                               ("hypo&last=3", "hypo = 1 AND day > '1961-04-22'"),
                               ("favourites", "favourite = 1")] {
            let dom = try Chromium.run(p.server.url + "#days?" + hash, ["--dump-dom"]).stdout
            let rows = dom.components(separatedBy: "<tr class=\"day-row").dropFirst().map { String($0.prefix(while: { $0 != ">" })) }
            let all = Int(E2E.scalar(db, "SELECT count(*) FROM day_log WHERE \(range)"))!
            #expect(rows.count == all)
            let expected = E2E.query(db, "SELECT day FROM day_log WHERE \(range) AND \(filter) ORDER BY day DESC").map { $0[0] }
            let shown = rows.filter { !$0.contains("hidden") }.compactMap { $0.components(separatedBy: "data-date=\"").dropFirst().first?.prefix(10) }
            #expect(shown.map(String.init) == expected, "#days?\(hash)")
            let counted = dom.components(separatedBy: "<output id=\"days-count\" for=\"day-filters\">").dropFirst().first?.prefix(while: { $0 != "<" })
            #expect(counted.map(String.init) == "\(expected.count) day\(expected.count == 1 ? "" : "s") of \(all)")
        }
    }

    @Test func readableWithJavaScriptOff() throws {
        let p = try page()
        defer { p.server.stop() }
        let nojs = p.server.origin + "/nojs/health.html"
        let dom = try Chromium.run(nojs, ["--dump-dom"]).stdout
        #expect(dom.contains("<html lang=\"en\">"), "the script ran although scripts were blocked")
        // The latest day opens, every day's chart is already drawn, and the links move between them.
        #expect(dom.contains("<article class=\"dayview current\" id=\"day-\(ChartFixture.lastDay)\""))
        #expect(count(dom, "<article class=\"dayview") == 14)
        #expect(count(dom, "<g class=\"side-day\"") == 14 * 6)
        #expect(article(dom, ChartFixture.day).contains("href=\"#day-1961-04-19\""))
        #expect(count(dom, "<path class=\"percentile\"") == 5)
        // And it is drawn: the day's chart is on screen, the previous day's too when its link is followed.
        let png = E2E.tempDir().appendingPathComponent("nojs.png").path
        for url in [nojs, nojs + "#day-" + ChartFixture.day] {
            _ = try Chromium.run(url, ["--screenshot=" + png, "--window-size=1200,900"])
            #expect(try PNGImage(path: png).count(near: 0x0072B2) > 500, "no glucose trace on screen at \(url)")
        }
        #expect(Set(p.server.requests) == ["/nojs/health.html"])
    }

    @Test func printsOnA4WithTheAGPReportOnOnePage() throws {
        let p = try page()
        defer { p.server.stop() }
        let pdf = E2E.tempDir().appendingPathComponent("health.pdf").path
        _ = try Chromium.run(p.server.url, ["--print-to-pdf=" + pdf, "--no-pdf-header-footer"])
        let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: pdf)), as: UTF8.self)
        // A4 sheets (595 × 842 pt); the day, the AGP report alone, the day table (14 rows) — one page each.
        let boxes = bytes.components(separatedBy: "/MediaBox [").dropFirst().map { $0.prefix(while: { $0 != "]" }) }
        #expect(boxes.count == 3, "\(boxes.count) pages")
        #expect(boxes.allSatisfy { $0.split(separator: " ").compactMap { Double($0) }.map { $0.rounded() } == [0, 0, 595, 842] })
    }

    @Test func screenshotsAreNotBlank() throws {
        let p = try page()
        defer { p.server.stop() }
        let dir = E2E.tempDir()
        for (hash, size) in [("day-" + ChartFixture.day, "1200,900"), ("agp", "1000,2600")] {
            let png = dir.appendingPathComponent("\(hash).png").path
            _ = try Chromium.run(p.server.url + "#" + hash, ["--screenshot=" + png, "--window-size=" + size])
            let image = try PNGImage(path: png)
            #expect(image.width == Int(size.split(separator: ",")[0]))
            #expect(image.nonBackgroundShare > 0.2, "\(hash): \(image.nonBackgroundShare)")
            // Drawn, not just laid out: the glucose trace's blue (day) or the AGP bands' blue are on screen.
            #expect(image.count(near: hash == "agp" ? 0x5B9BD5 : 0x0072B2) > 500, "\(hash) has no chart colour")
        }
    }
}
