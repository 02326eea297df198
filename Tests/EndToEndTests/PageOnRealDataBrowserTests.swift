import Foundation
import HealthPipeCore
import Testing
import HealthPipeTestSupport

/// Issue 22 in a real browser, at a desktop (1400 px) and a phone (390 px) width, on real-shaped
/// data: the Loop and AAPS Nightscout uploads of Tests/Fixtures/real/nightscout (a Loop evening
/// whose last reading is at 23:55, 2 of 14 days with readings) and the 14 full days of the chart
/// fixture. Headless chromium will not make a window narrower than 500 px, so the page runs in an
/// iframe of the wanted width inside a small harness whose script measures the laid-out page
/// (scroll width, rendered font sizes, boxes) and writes the numbers into the DOM dump.
@Suite(.serialized) struct PageOnRealDataBrowserTests {
    static let widths = [1400, 390]
    static let nightscout = Repository.url("Tests/Fixtures/real/nightscout")

    /// The Loop entries and treatments and the AAPS treatments, as their uploads are imported.
    static let realDatabase: URL = {
        let db = E2E.tempDir().appendingPathComponent("nightscout.sqlite")
        for f in ["nightscout-loop-entries.json", "nightscout-loop-treatments.json", "nightscout-aaps-treatments.json"] {
            _ = try? E2E.run(["import", nightscout.appendingPathComponent(f).path, "--db", db.path, "--timezone", "Europe/Berlin", "--subject", "loop"])
        }
        return db
    }()

    static let measureScript = """
    (function(){var f=document.getElementById('page');
    function measure(){var w=f.contentWindow,d=f.contentDocument,out={};
    out.scrollWidth=d.scrollingElement.scrollWidth;out.innerWidth=w.innerWidth;
    function boxed(el){for(var p=el.parentElement;p;p=p.parentElement){var o=w.getComputedStyle(p).overflowX;if(o==='auto'||o==='scroll'||o==='hidden')return true}return false}
    function fonts(svg){if(!svg)return null;var r=svg.getBoundingClientRect(),k=r.width/svg.viewBox.baseVal.width,min=1e9,small=[];
      [].forEach.call(svg.querySelectorAll('text'),function(t){if(t.getBoundingClientRect().width===0)return;var fs=parseFloat(w.getComputedStyle(t).fontSize)*k;
        if(fs<min)min=fs;if(fs<10)small.push(t.textContent.slice(0,40))});return {min:min,small:small.slice(0,5)}}
    var day=d.querySelector('.dayview.shown');out.shownDay=day?day.getAttribute('data-date'):null;
    var chart=day?[].filter.call(day.querySelectorAll('svg.day-chart'),function(s){return s.getBoundingClientRect().width>0})[0]:null;
    out.dayLayout=chart?chart.getAttribute('class'):null;var frame=chart&&chart.querySelector('rect.frame');
    if(frame)out.plotX=[+frame.getAttribute('x'),+frame.getAttribute('x')+(+frame.getAttribute('width'))];
    out.dayFonts=fonts(chart);out.agpFonts=fonts(d.querySelector('svg.agp-chart'));
    var outside=[];[].forEach.call(d.querySelectorAll('body *'),function(e){var b=e.getBoundingClientRect();
      if(b.width>0&&(b.right>w.innerWidth+0.5||b.left<-0.5)&&!boxed(e))outside.push(e.tagName+'.'+(e.getAttribute('class')||''))});out.outside=outside.slice(0,6);
    var nav=day&&day.querySelector('.daynav');out.navOutside=nav?[].filter.call(nav.children,function(c){var b=c.getBoundingClientRect();return b.left<0||b.right>w.innerWidth}).length:-1;
    var tw=d.querySelector('.table-wrap');if(tw){out.tableRight=tw.getBoundingClientRect().right;out.tableScrolls=w.getComputedStyle(tw).overflowX==='auto'}
    var path=chart&&chart.querySelector('path.forecast');out.forecastPoints=chart?[].map.call(chart.querySelectorAll('circle.forecast-point'),function(c){return +c.getAttribute('cx')}):[];
    if(path){var p=path.getPointAtLength(0),rs=chart.querySelectorAll('circle.reading'),last=rs[rs.length-1];out.forecastStart=[p.x,p.y];out.lastReading=[+last.getAttribute('cx'),+last.getAttribute('cy')]}
    var boxes=[];if(chart)[].forEach.call(chart.querySelectorAll('g.event'),function(g,i){[].forEach.call(g.querySelectorAll('text,.mark'),function(e){
      var b=e.getBoundingClientRect();if(b.width>0)boxes.push([i,b.left,b.top,b.right,b.bottom,e.tagName])})});out.laneBoxes=boxes;
    var overlaps=[];[].forEach.call(d.querySelectorAll('svg'),function(svg){if(svg.getBoundingClientRect().width===0)return;
      var ts=[].filter.call(svg.querySelectorAll('text'),function(t){var b=t.getBoundingClientRect();return b.width>0&&b.height>0&&t.textContent.trim()});
      var bs=ts.map(function(t){return t.getBoundingClientRect()});
      for(var i=0;i<bs.length;i++)for(var j=i+1;j<bs.length;j++){var a=bs[i],b=bs[j],ox=Math.min(a.right,b.right)-Math.max(a.left,b.left),oy=Math.min(a.bottom,b.bottom)-Math.max(a.top,b.top);
        if(ox>1&&oy>2)overlaps.push((svg.getAttribute('class')||'svg')+': "'+ts[i].textContent.slice(0,30)+'" × "'+ts[j].textContent.slice(0,30)+'"')}});
    out.textOverlaps=overlaps.slice(0,12);
    var crossed=[];if(chart){var dots=[].map.call(chart.querySelectorAll('circle.reading'),function(c){return c.getBoundingClientRect()});
      [].forEach.call(chart.querySelectorAll('text.t-band,text.forecast-label'),function(t){var b=t.getBoundingClientRect();
        if(dots.some(function(c){var x=(c.left+c.right)/2,y=(c.top+c.bottom)/2;return x>b.left&&x<b.right&&y>b.top&&y<b.bottom}))crossed.push(t.textContent)})}
    out.bandsCrossed=(chart||!d.querySelector('.dayview'))?crossed:null;
    var clipped=[];[].forEach.call(d.querySelectorAll('svg'),function(svg){var r=svg.getBoundingClientRect();if(r.width===0)return;
      [].forEach.call(svg.querySelectorAll('text'),function(t){var b=t.getBoundingClientRect();
        if(b.width>0&&(b.left<r.left-0.5||b.right>r.right+0.5))clipped.push((svg.getAttribute('class')||'svg')+': "'+t.textContent.slice(0,30)+'"')})});
    out.textClipped=clipped.slice(0,12);
    var open=d.querySelector('details.report-day[open]');out.openReportDay=open?open.id:null;
        var pre=document.createElement('pre');pre.id='measured';pre.textContent=JSON.stringify(out);document.body.appendChild(pre)}
    f.addEventListener('load',function(){var h=f.getAttribute('data-hash');if(h)f.contentWindow.location.hash=h;setTimeout(measure,200)})})();
    """

    /// The page's layout at `width` px with `hash` opened, as the harness measured it.
    func measure(_ page: URL, hash: String, width: Int) throws -> [String: Any] {
        let html = try String(contentsOf: page, encoding: .utf8)
        let srcdoc = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let harness = E2E.tempDir().appendingPathComponent("harness.html")
        try ("<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"page\" data-hash=\"\(hash)\" style=\"border:0;width:\(width)px;height:900px\" srcdoc=\""
             + srcdoc + "\"></iframe><script>" + Self.measureScript + "</script></body></html>").write(to: harness, atomically: true, encoding: .utf8)
        let server = try LocalHTTPServer(serving: harness, at: "/harness.html")
        defer { server.stop() }
        let dom = try Chromium.run(server.url, ["--dump-dom", "--window-size=\(max(width, 500) + 40),1000"]).stdout
        guard let start = dom.range(of: "<pre id=\"measured\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex),
              let json = try JSONSerialization.jsonObject(with: Data(dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&").utf8)) as? [String: Any] else {
            Issue.record("the harness measured nothing at \(width) px")
            return [:]
        }
        return json
    }

    func page(_ db: URL, _ extra: [String] = []) throws -> URL {
        let out = E2E.tempDir().appendingPathComponent("health.html")
        let r = try E2E.run(["page", "--db", db.path, "-o", out.path] + extra)
        #expect(r.code == 0, "\(r.stderr)")
        return out
    }

    /// `metrics --per period` of the same days: the page's numbers must be these.
    func periodMetrics(_ db: URL, from: String, to: String) throws -> [String: Any] {
        let r = try E2E.run(["metrics", "--db", db.path, "--per", "period", "--from", from, "--to", to, "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Fits the width: no sideways scrolling of the page, chart text ≥ 10 px, the day navigation
    /// inside the screen, the table inside its own scrolling box.
    func expectFits(_ m: [String: Any], _ width: Int, _ what: String) {
        #expect(m["innerWidth"] as? Int == width, "\(what): the frame is \(m["innerWidth"] ?? "-") px")
        #expect((m["scrollWidth"] as? Int ?? .max) <= width, "\(what) at \(width) px scrolls sideways: \(m["scrollWidth"] ?? "-"), \(m["outside"] ?? "")")
        #expect((m["outside"] as? [Any])?.isEmpty == true, "\(what) at \(width) px: outside the screen \(m["outside"] ?? "")")
        for chart in ["dayFonts", "agpFonts"] {
            let f = m[chart] as? [String: Any]
            #expect((f?["min"] as? Double ?? 0) >= 9.99, "\(what) at \(width) px: \(chart) text of \(f?["min"] ?? "-") px: \(f?["small"] ?? "")")
        }
        #expect(m["navOutside"] as? Int == 0, "\(what) at \(width) px: the day navigation leaves the screen")
        let layout = m["dayLayout"] as? String ?? "no day chart shown"
        #expect(layout.contains("day-chart") && layout.contains("compact") == (width < 700), "\(what) at \(width) px: the day chart is '\(layout)'")
        expectNoTextOverlaps(m, width, what)
        #expect((m["tableRight"] as? Double ?? .infinity) <= Double(width) + 0.5 && m["tableScrolls"] as? Bool == true, "\(what) at \(width) px: the day table")
    }

    /// Issue 22 (6): no two texts of any chart on the page (the shown day, the AGP report, the report
    /// graphs, the toothbrushing history) overlap, as the browser lays them out.
    func expectNoTextOverlaps(_ m: [String: Any], _ width: Int, _ what: String) {
        let overlaps = m["textOverlaps"] as? [String] ?? ["not measured"]
        #expect(overlaps.isEmpty, "\(what) at \(width) px: overlapping text \(overlaps)")
        let crossed = m["bandsCrossed"] as? [String] ?? ["not measured"]
        #expect(crossed.isEmpty, "\(what) at \(width) px: the trace crosses the band names or the forecast's label \(crossed)")
        let clipped = m["textClipped"] as? [String] ?? ["not measured"]
        #expect(clipped.isEmpty, "\(what) at \(width) px: text cut off at a chart's edge \(clipped)")
    }

    /// Issue 22 (2): 2 of 14 days with readings. Before, the AGP said "14 days", CGM active 100 %
    /// and nothing else; now it says 2 of 14 days, the active % over the whole period (= the
    /// metric `active_percent_period`) and shows the notice, at both widths.
    @Test func aSparsePeriodSaysSoAtBothWidths() throws {
        let db = Self.realDatabase
        let file = try page(db)
        let html = try String(contentsOf: file, encoding: .utf8)
        let metrics = try periodMetrics(db, from: "2025-09-02", to: "2025-09-15")
        #expect(metrics["days_with_data"] as? Double == 2 && metrics["period_days"] as? Double == 14)
        let active = try #require(metrics["active_percent_period"] as? Double)
        let shown = String(format: "%.1f%%", active)
        // The page's AGP and Days sections and the AGP report itself.
        #expect(count(html, "<p class=\"period-notice insufficient\" role=\"alert\"><strong>Not enough data for a reliable report.</strong>") == 2)
        #expect(count(html, "<b data-stat=\"days-with-data\">2 of 14 days</b>") == 2)
        #expect(count(html, "<b data-stat=\"active-percent\">\(shown)</b>") == 2)
        #expect(html.contains("<g class=\"data-notice insufficient\" role=\"alert\">"))
        #expect(html.contains("data-stat=\"active-percent\" style=\"fill:#882255\">\(shown)</text>"))
        #expect(html.contains("Not enough data: 2 of 14 days with readings, CGM active \(shown)"))
        #expect(!html.contains(" a day</text>"), "time per day is per day with data")
        #expect(html.contains(" a data day</text>"))
        // TITR and GRI as `metrics` computes them.
        let titr = try #require(metrics["titr_70_140_pct"] as? Double), gri = try #require(metrics["gri"] as? Double)
        #expect(html.contains("data-stat=\"titr\">\(Int(titr.rounded()))%</text>") || html.contains("data-stat=\"titr\">\(String(format: "%.1f", titr))%</text>"))
        #expect(html.contains(String(format: "%.1f", gri) + " · zone " + (metrics["gri_zone"] as? String ?? "?")))
        for width in Self.widths {
            let m = try measure(file, hash: "agp", width: width)
            expectFits(m, width, "the sparse period")
        }
    }

    /// Issue 22 (2): 14 full days: no notice, and the page's active % is the metric's.
    @Test func fourteenFullDaysHaveNoNotice() throws {
        let db = try ChartFixture.db()
        let file = try page(db, ["--from", ChartFixture.firstDay, "--to", ChartFixture.lastDay])
        let html = try String(contentsOf: file, encoding: .utf8)
        let metrics = try periodMetrics(db, from: ChartFixture.firstDay, to: ChartFixture.lastDay)
        let active = try #require(metrics["active_percent_period"] as? Double)
        #expect(active >= 70 && metrics["days_with_data"] as? Double == 14)
        #expect(!html.contains("class=\"period-notice insufficient\"") && !html.contains("class=\"data-notice insufficient\""))
        #expect(count(html, "<p class=\"period-notice\"><b data-stat=\"days-with-data\">14 of 14 days</b> have CGM readings · CGM active <b data-stat=\"active-percent\">"
                      + String(format: "%.1f%%", active) + "</b>") == 2)
        for width in Self.widths {
            expectFits(try measure(file, hash: "day-" + ChartFixture.day, width: width), width, "the full fortnight")
        }
    }

    /// Issue 22 (4): the AAPS day of the Nightscout exporter's CSV (an SMB and a temp basal every
    /// 5 minutes for hours). Before, the insulin lane was a solid bar with a guide line per dose and
    /// labels over markers; now each hour's micro-boluses are one marker whose tooltip gives the
    /// total, each hour's basal entries another, and no lane text overlaps another item, at both widths.
    @Test func anAAPSDayGathersItsMicroBolusesPerHour() throws {
        let db = E2E.tempDir().appendingPathComponent("aaps.sqlite")
        let r = try E2E.run(["import", Self.nightscout.appendingPathComponent("nightscout-exporter-with-treatments.csv").path, "--db", db.path,
                             "--timezone", "America/Chicago", "--subject", "aaps"])
        #expect(r.code == 0, "\(r.stderr)")
        let file = try page(db)
        let html = try String(contentsOf: file, encoding: .utf8)
        // Every micro-bolus hour as the store sums it (local hours, UTC−5 on that March day).
        let hours = E2E.query(db, """
            SELECT strftime('%H', start + utc_offset, 'unixepoch'), count(*), round(sum(insulin_u), 2) FROM events
            WHERE kind = 'insulin' AND subtype = 'bolus' AND insulin_u < 1 GROUP BY 1 HAVING count(*) > 1
            """)
        #expect(hours.count >= 2)
        for h in hours {
            let hour = Int(h[0])!, next = String(format: "%02d", hour + 1)
            let total = String(format: "%g", Double(h[2])!)
            #expect(html.contains("<title>Micro-boluses \(h[0]):00–\(next):00: \(h[1]) doses, \(total) U in total ("), "hour \(h[0]): \(h[1]) doses, \(total) U")
        }
        let article = (html.components(separatedBy: "id=\"day-2026-03-24\"").dropFirst().first?.components(separatedBy: "</article>").first ?? "")
            .components(separatedBy: "<div class=\"day-compact\">")[0]  // the wide chart; the phone's draws the same
        let doses = Int(E2E.scalar(db, "SELECT count(*) FROM events WHERE kind = 'insulin'"))!
        let drawn = count(article, "<g class=\"event bolus") + count(article, "<g class=\"event basal")
        #expect(doses > 30 && drawn < doses / 3, "\(drawn) insulin markers for \(doses) doses")
        #expect(count(article, "class=\"guide\"") < 10)
        // Temp basals are basal: the basal switch hides them.
        #expect(article.contains("<g class=\"event basal hourly\" data-kind=\"insulin\""))
        for width in Self.widths {
            let m = try measure(file, hash: "day-2026-03-24", width: width)
            expectFits(m, width, "the AAPS day")
            let boxes = (m["laneBoxes"] as? [[Any]] ?? []).map { b in (item: b[0] as! Int, l: b[1] as! Double, t: b[2] as! Double, r: b[3] as! Double, btm: b[4] as! Double, text: (b[5] as! String) == "text") }
            #expect(boxes.count > 10 && boxes.contains { $0.text }, "the lane draws labels: \(boxes.count) boxes")
            for a in boxes where a.text {
                for b in boxes where b.item != a.item && a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.btm - 0.5 && b.t < a.btm - 0.5 {
                    Issue.record("at \(width) px the label of lane item \(a.item) overlaps item \(b.item)")
                }
            }
        }
    }

    /// Issue 22 (5): the Loop evening ends at 23:55. Before, its forecast began at 23:55 and all six
    /// points lay past 24:00, off the chart; now the points kept lie inside the x axis, the line
    /// starts at the last reading, drawn red and dotted.
    @Test func theForecastStaysInsideTheChartAtBothWidths() throws {
        let file = try page(Self.realDatabase)
        for width in Self.widths {
            let m = try measure(file, hash: "day-2025-09-14", width: width)
            #expect(m["shownDay"] as? String == "2025-09-14")
            let xs = m["forecastPoints"] as? [Double] ?? []
            let plot = m["plotX"] as? [Double] ?? [0, 0]
            #expect(!xs.isEmpty && xs.allSatisfy { $0 >= plot[0] && $0 <= plot[1] }, "forecast points at \(xs), the x axis \(plot)")
            let start = m["forecastStart"] as? [Double] ?? [], last = m["lastReading"] as? [Double] ?? [1, 1]
            #expect(start.count == 2 && zip(start, last).allSatisfy { abs($0 - $1) < 0.2 }, "the line starts at \(start), the last reading is at \(last)")
            expectFits(m, width, "the Loop day")
        }
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.contains(".hp-chart .forecast{fill:none;stroke:#C0172C;stroke-width:2.6;stroke-linecap:round;stroke-dasharray:0 5}"))
    }

    /// Issue 22 (7): a person without glucose readings — a health log only, a toothbrush only, Apple
    /// Health only (its daily metrics) — gets
    /// a page of what they logged (before: "no glucose readings to chart", exit 1), saying why the
    /// glucose views are missing, and it fits a phone as it fits a desktop.
    @Test func aPersonWithoutGlucoseGetsAPageOfWhatTheyLogged() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("log.sqlite"), brush = dir.appendingPathComponent("brush.sqlite")
        #expect(try E2E.run(["import", E2E.samples.appendingPathComponent("health-reports/health_log.json").path, "--db", log.path,
                             "--timezone", "Europe/Rome", "--quiet"]).code == 0)
        let stream = try E2E.run(["stream", "--replay", E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path,
                                  "--start", "2024-04-03T07:30:00Z", "--db", brush.path])
        #expect([0, 3].contains(stream.code), "\(stream.stderr)")
        let apple = dir.appendingPathComponent("apple.sqlite")
        #expect(try E2E.run(["import", E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_export.zip").path,
                             "--db", apple.path, "--timezone", "Europe/London", "--quiet"]).code == 0)
        for (db, section) in [(log, "<section id=\"reports\""), (brush, "<section id=\"history\""), (apple, "<section id=\"metrics\"")] {
            let html = try String(contentsOf: try page(db), encoding: .utf8)
            #expect(html.contains("<h2>No glucose readings</h2>") && html.contains(section), "\(db.lastPathComponent)")
            #expect(!html.contains("<section id=\"day\""))
            for width in Self.widths {
                let m = try measure(try page(db), hash: "", width: width)
                #expect((m["scrollWidth"] as? Int ?? .max) <= width, "\(db.lastPathComponent) at \(width) px scrolls sideways: \(m["outside"] ?? "")")
                #expect((m["outside"] as? [Any])?.isEmpty == true, "\(db.lastPathComponent) at \(width) px: \(m["outside"] ?? "")")
                expectNoTextOverlaps(m, width, db.lastPathComponent)
            }
        }
        #expect(try String(contentsOf: try page(apple), encoding: .utf8).contains("heart rate (/min)"))
        // A database with nothing of the person: a clear reason, exit 1.
        let empty = dir.appendingPathComponent("empty.sqlite")
        #expect(try E2E.run(["add", "insulin", "1", "--db", empty.path, "--at", "2024-01-01 08:00", "--timezone", "UTC"]).code == 0)
        let none = try E2E.run(["page", "--db", empty.path, "-o", dir.appendingPathComponent("x.html").path])
        #expect(none.code == 1 && none.stderr.contains("nothing to show for 'default'"), "\(none.stderr)")
    }

    /// Issue 22 (8): a page of 7 of the fortnight's days says which days it holds, that readings run
    /// further and the command for other days; an arrow to a day off the page that has readings says
    /// how to write its page; it still fits a phone. Before: "Not on this page" and nothing else.
    @Test func thePageSaysWhichDaysItHoldsAndHowToWriteOthers() throws {
        let db = try ChartFixture.db()
        let file = try page(db, ["--from", "1961-04-15", "--to", "1961-04-21"])
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.contains("This page holds Sat 15 Apr 1961 – Fri 21 Apr 1961 (7 days). Readings run Wed 12 Apr 1961 – Tue 25 Apr 1961"), "\(html.range(of: "page-span").map { String(html[$0.lowerBound...].prefix(300)) } ?? "no note")")
        #expect(html.contains("<code>healthpipe page --from 1961-04-12 --to 1961-04-25 --db …</code>"))
        #expect(html.contains("title=\"Not on this page; it has readings: healthpipe page --from 1961-04-22 --to 1961-05-05 --db …\""))
        for width in Self.widths {
            let m = try measure(file, hash: "day-1961-04-21", width: width)
            #expect((m["scrollWidth"] as? Int ?? .max) <= width, "at \(width) px scrolls sideways: \(m["outside"] ?? "")")
        }
    }

    /// Issue 22 (7): the health log's month calendar (seed 004 §1.1): each day with reports is a cell
    /// with the store's count of its reports and their highest importance, and opens that day's
    /// reports and summary; whole months, Monday first; it fits a phone.
    @Test func theHealthLogHasAMonthCalendar() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("log.sqlite")
        #expect(try E2E.run(["import", E2E.samples.appendingPathComponent("health-reports/health_log.json").path, "--db", db.path,
                             "--timezone", "Europe/Rome", "--quiet"]).code == 0)
        let file = try page(db)
        let html = try String(contentsOf: file, encoding: .utf8)
        let days = E2E.query(db, """
            SELECT date(r.start + r.utc_offset, 'unixepoch'), count(DISTINCT r.id), max(v.importance)
              FROM reports r JOIN report_values v ON v.subject = r.subject AND v.report_id = r.id GROUP BY 1 ORDER BY 1
            """)
        #expect(days.count >= 3)
        let last = days.last![0]
        for d in days where d[0] >= String(CivilDate.isoDate(fromDays: CivilDate.days(fromISO: last)! - 29).prefix(8)) + "01" {
            let day = Int(d[0].suffix(2))!
            #expect(html.contains("<a class=\"cal-link\" href=\"#reports-\(d[0])\""), "\(d[0]) has no cell")
            #expect(html.contains("<span class=\"num\">\(day)</span><span class=\"badges\"><span class=\"count\">\(d[1])</span><span class=\"imp imp-\(d[2])\" style=\"background:"),
                    "\(d[0]): \(d[1]) reports, importance \(d[2])")
            #expect(html.contains("<details class=\"report-day\" id=\"reports-\(d[0])\" data-importance=\"\(d[2])\">"))
        }
        // Whole weeks: every row of every month has seven cells.
        for table in html.components(separatedBy: "<table class=\"calendar\">").dropFirst() {
            let body = table.components(separatedBy: "</table>")[0].components(separatedBy: "<tbody>")[1]
            for row in body.components(separatedBy: "<tr>").dropFirst() {
                #expect(row.components(separatedBy: "<td").count - 1 == 7)
            }
        }
        for width in Self.widths {
            let m = try measure(file, hash: "reports-" + last, width: width)
            #expect((m["scrollWidth"] as? Int ?? .max) <= width, "at \(width) px the calendar scrolls sideways: \(m["outside"] ?? "")")
            #expect(m["openReportDay"] as? String == "reports-" + last, "the link opens its day: \(m["openReportDay"] ?? "none")")
            expectNoTextOverlaps(m, width, "the health log")
        }
    }

    /// Issue 22 (1, 6, 9): exactly what `scripts/demo.sh` writes (the first command of the README) —
    /// every person's page, with glucose or without — fits a phone and a desktop with no overlapping
    /// chart text; the index links every page.
    @Test func everyDemoPageHoldsUpAtBothWidths() throws {
        let out = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: out) }
        let demo = Process()
        demo.executableURL = URL(fileURLWithPath: "/bin/bash")
        demo.arguments = [E2E.packageRoot.appendingPathComponent("scripts/demo.sh").path]
        demo.environment = ProcessInfo.processInfo.environment.merging(["HEALTHPIPE_BIN": E2E.binary.path, "DEMO_OUT": out.path]) { $1 }
        demo.standardOutput = FileHandle.nullDevice
        try demo.run()
        demo.waitUntilExit()
        #expect(demo.terminationStatus == 0)
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        let pages = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".html") && $0 != "index.html" }.sorted()
        #expect(pages.count >= 8, "\(pages)")
        for name in pages {
            #expect(index.contains("<a href=\"\(name)\">"), "the index links \(name)")
            for width in Self.widths {
                let m = try measure(out.appendingPathComponent(name), hash: "", width: width)
                #expect((m["scrollWidth"] as? Int ?? .max) <= width, "\(name) at \(width) px scrolls sideways: \(m["outside"] ?? "")")
                #expect((m["outside"] as? [Any])?.isEmpty == true, "\(name) at \(width) px: \(m["outside"] ?? "")")
                expectNoTextOverlaps(m, width, name)
            }
        }
    }

    /// A meter user (a real mySugr export: finger sticks, no CGM) gets their days drawn from their
    /// checks, as the app draws them — not a card saying there are no CGM readings (what the page
    /// said before) — opening on the last day with checks, and the page fits a phone.
    @Test func aMeterUserSeesTheirChecksOnTheDays() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("mysugr.sqlite")
        let r = try E2E.run(["import", E2E.fixtures.appendingPathComponent("real/mysugr/mysugr-en-us-mgdl.csv").path, "--db", db.path,
                             "--timezone", "America/New_York", "--quiet"])
        #expect(r.code == 0, "\(r.stderr)")
        let file = try page(db)
        let html = try String(contentsOf: file, encoding: .utf8)
        let last = E2E.scalar(db, "SELECT max(day) FROM daily_summaries WHERE metric = 'blood_glucose'")
        let sticks = E2E.scalar(db, "SELECT sum(n) FROM daily_summaries WHERE metric = 'blood_glucose' AND day > date('\(last)', '-14 days')")
        #expect(!html.contains("No CGM readings") && !html.contains("id=\"no-glucose\""))
        // Each of the page's 14 days is drawn wide and for a phone: every check twice.
        #expect(Int(sticks).map { $0 > 0 && DrawnMarks.checks(html) == 2 * $0 } == true, "\(sticks)")
        #expect(html.contains("<article class=\"dayview current\" id=\"day-\(last)\""))
        for width in Self.widths {
            let m = try measure(file, hash: "", width: width)
            #expect((m["scrollWidth"] as? Int ?? .max) <= width, "at \(width) px: \(m["outside"] ?? "")")
        }
    }
}
