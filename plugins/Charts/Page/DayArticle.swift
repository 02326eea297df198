import HealthPipeCore

/// One day's view as an `<article>`: its navigation (previous/next), the wide chart and the phone's
/// compact chart with the side days as a strip, and the facts line under them. The page links the
/// days it holds by anchor; the app (`healthpipe serve`) links every day by address — `link` says
/// where a day goes (nil: not a link, and `offTitle` says why).
package struct DayArticle {
    package var view: DayView
    package var unit: DisplayUnit
    package var isCurrent: Bool
    package var link: (Int64) -> String?
    /// The title of an unlinked previous/next day (`rel` is "prev" or "next").
    package var offTitle: (_ day: Int64, _ rel: String) -> String

    package init(view: DayView, unit: DisplayUnit, isCurrent: Bool, link: @escaping (Int64) -> String?,
                 offTitle: @escaping (_ day: Int64, _ rel: String) -> String) {
        self.view = view
        self.unit = unit
        self.isCurrent = isCurrent
        self.link = link
        self.offTitle = offTitle
    }

    package func render(_ m: inout Markup) {
        let v = view
        let iso = CivilDate.isoDate(fromDays: v.day)
        m.raw("<article class=\"dayview\(isCurrent ? " current" : "")\" id=\"day-\(iso)\" data-date=\"\(iso)\"><nav class=\"daynav\">")
        navLink(&m, day: v.navigation.previous, rel: "prev", text: "‹ " + Fmt.shortDate(v.navigation.previous))
        m.raw("<h3>")
        m.escaped(Fmt.longDate(v.day))
        m.raw("</h3>")
        navLink(&m, day: v.navigation.next, rel: "next", text: Fmt.shortDate(v.navigation.next) + " ›")
        m.raw("</nav>")
        // Both layouts; the style sheet shows the one that fits the screen (a phone gets the compact
        // chart at full text size and the side days as a strip under it).
        m.raw("<div class=\"chart-scroll day-wide\">")
        DaySVG(view: v, inPage: true).element(into: &m)
        m.raw("</div><div class=\"day-compact\">")
        DaySVG(view: v, inPage: true, layout: .compact).element(into: &m)
        sideStrip(&m)
        m.raw("</div>")
        facts(&m)
        DayRecordList(view: v, unit: unit).render(&m)
        m.raw("</article>")
    }

    func navLink(_ m: inout Markup, day: Int64, rel: String, text: String) {
        if let href = link(day) {
            m.raw("<a class=\"nav \(rel)\" rel=\"\(rel)\" href=\"")
            m.escaped(href)
            m.raw("\">")
            m.escaped(text)
            m.raw("</a>")
        } else {
            m.raw("<span class=\"nav \(rel) off\" title=\"")
            m.escaped(offTitle(day, rel))
            m.raw("\">")
            m.escaped(text)
            m.raw("</span>")
        }
    }

    /// The compact chart's three days before and after (the wide chart's side views): each day's
    /// mean and range, a link when the day has one.
    func sideStrip(_ m: inout Markup) {
        let v = view
        m.raw("<ol class=\"side-strip\" aria-label=\"The three days before and after\">")
        for d in v.previous + v.next {
            let text = Fmt.weekday(d.day) + " " + String(CivilDate.date(fromDays: d.day).day)
            let href = link(d.day)
            m.raw("<li" + (d.day > v.day ? " class=\"after\"" : "") + ">")
            if let href {
                m.raw("<a href=\"")
                m.escaped(href)
                m.raw("\">")
            }
            m.raw("<b>" + text + "</b>")
            if let mean = d.mean, let lo = d.min, let hi = d.max {
                m.raw("<span>\(unit.text(mean))</span><small>\(unit.text(lo))–\(unit.text(hi))</small>")
            } else {
                m.raw("<small>no data</small>")
            }
            if href != nil { m.raw("</a>") }
            m.raw("</li>")
        }
        m.raw("</ol>")
    }

    /// One line under the chart: the numbers a person looks for first, and what was logged.
    func facts(_ m: inout Markup) {
        let v = view
        m.raw("<p class=\"facts\">")
        for e in v.episodes {
            m.raw("<span class=\"episode\">")
            m.escaped(e.name.prefix(1).uppercased() + e.name.dropFirst())
            m.raw("</span>")
        }
        // The CGM's numbers; on a meter user's day the finger-stick checks' (counted either way).
        let s = v.stats, c = v.checkStats
        let shown = s.count > 0 ? v.points : v.checks
        if s.count == 0, c.count == 1, let only = c.mean {
            // One check is a value, not a mean and a range.
            m.raw("1 BG check: <b>\(unit.text(only))</b> \(unit.rawValue)")
        } else if let mean = s.mean ?? c.mean, let low = s.min ?? c.min, let high = s.max ?? c.max {
            let inRange = shown.filter { v.bands.bands[v.bands.index(of: $0.mgdl)].level == 0 }.count
            if s.count == 0 { m.raw("\(c.count) BG check\(c.count == 1 ? "" : "s"): ") }
            m.raw("Mean <b>\(unit.text(mean))</b> · lowest <b>\(unit.text(low))</b> · highest <b>\(unit.text(high))</b> \(unit.rawValue)")
            m.raw(" · <b>\(Fmt.fixed(100 * Double(inRange) / Double(shown.count), 0))%</b> of \(s.count > 0 ? "readings" : "checks") in the ")
            m.escaped(v.bands.bands.first { $0.level == 0 }?.title.lowercased() ?? "target")
            m.raw(" band")
            if s.count > 0 && c.count > 0 { m.raw(" · \(c.count) BG check\(c.count == 1 ? "" : "s")") }
        } else {
            m.raw("No glucose readings this day")
        }
        let meals = v.markers.filter { $0.kind == .meal }, doses = v.markers.filter { $0.kind == .insulin }
        let carbs = meals.compactMap(\.carbs).reduce(0, +)
        if !meals.isEmpty { m.raw(" · \(meals.count) meal\(meals.count == 1 ? "" : "s") (\(Fmt.amount(carbs, 0)) g carbs)") }
        // Insulin as the total daily dose with its split; the boluses alone when the basal is not known whole.
        let insulin = v.insulin
        if let total = insulin.total, insulin.basal > 0 {
            m.raw(" · insulin <b>\(Fmt.amount(total, 1)) U</b> (bolus \(Fmt.amount(insulin.bolus, 1)) U, basal \(Fmt.amount(insulin.basal, 1)) U)")
        } else if !doses.isEmpty || insulin.rateMinutes > 0 {
            m.raw(" · bolus \(Fmt.amount(insulin.bolus, 1)) U")
            if insulin.rateMinutes > 0 {
                m.raw(" · basal rates recorded for \(Fmt.duration(minutes: insulin.rateMinutes)) of the day (no day total)")
            }
        }
        if let top = v.basal.map(\.rate).max() { m.raw(" · basal up to \(Fmt.amount(top, 2)) U/h") }
        if let f = v.forecast, let end = f.points.last {
            m.raw(" · forecast (\(f.model)) \(unit.text(end.mgdl)) at \(Fmt.clock(localSeconds: LocalDays.local(end.utc, f.offset)))")
        }
        m.raw("</p>")
    }
}
