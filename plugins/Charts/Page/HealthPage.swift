import HealthPipeCore

/// ONE self-contained HTML file with every view drawn as inline SVG on the server side: readable
/// with JavaScript off, printable on A4, and asking for nothing outside itself (a Content Security
/// Policy forbids any request; the favicon is an inline data URL).
public struct HealthPage {
    public var subject: String
    public var firstDay: Int64
    public var lastDay: Int64
    public var unit: DisplayUnit
    public var showBasal: Bool
    /// One per day of the period, oldest first; the last one is shown first ("today").
    public var days: [DayView]
    public var agp: AGPView
    public var table: DayTable
    public var bands: ChartBands
    /// The toothbrushing history (week, month, year); empty when the subject has no sessions.
    public var history: [HistoryChart]
    /// Shown in the footer, e.g. "healthpipe 0.1.0".
    public var generator: String
    /// The seed-004 health log — the month calendar, values over the week and reports per day —
    /// when the subject has reports.
    public var reports: Reports?

    public struct Reports {
        public var values: [ReportValuesView]
        public var days: ReportDaysView
        public var calendar: ReportCalendar
        public init(values: [ReportValuesView], days: ReportDaysView, calendar: ReportCalendar) {
            self.values = values
            self.days = days
            self.calendar = calendar
        }
    }
    /// False for a person without glucose readings (a health log, a toothbrush): the page holds
    /// their other sections and says why the glucose views are not there (`days`, `agp`, `table` unused).
    public var hasGlucose = true
    /// Daily summaries other than glucose (Apple steps, heart rate, sleep …) of the page's days.
    public var dailyMetrics: DailyMetricsTable?

    public init(subject: String, firstDay: Int64, lastDay: Int64, unit: DisplayUnit, showBasal: Bool, days: [DayView], agp: AGPView,
                table: DayTable, bands: ChartBands, history: [HistoryChart], generator: String) {
        self.subject = subject
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.unit = unit
        self.showBasal = showBasal
        self.days = days
        self.agp = agp
        self.table = table
        self.bands = bands
        self.history = history
        self.generator = generator
    }

    /// The day opened first: the latest day of the period that has readings or checks (else the last day).
    var currentDay: Int64? { days.last(where: { !$0.points.isEmpty || !$0.checks.isEmpty })?.day ?? days.last?.day }

    public func html() -> String {
        var m = Markup(capacity: 900 * 1024)
        let period = Fmt.shortDate(firstDay) + " – " + Fmt.shortDate(lastDay)
        m.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        m.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        m.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">")
        m.raw("<link rel=\"icon\" href=\"data:,\"><title>")
        m.escaped("Health views · " + subject + " · " + period)
        m.raw("</title><style>\n" + PageStyle.css + ChartStyle.css + "\n" + DayTableHTML.filterCSS + ReportCalendarHTML.css + MetricTrendsHTML.css + "</style></head><body>")

        m.raw("<header class=\"top\"><div class=\"wrap\"><div class=\"brand\">HealthPipe · health views</div><h1>")
        m.escaped(subject)
        m.raw("</h1><p>")
        if hasGlucose {
            m.escaped(period + " · glucose in " + unit.rawValue + " · bands: " + bands.bands.enumerated().map { $0.element.title + " " + bands.rangeText($0.offset, unit: unit) }.joined(separator: ", "))
        } else {
            m.escaped(period + " · no glucose readings")
        }
        m.raw("</p><nav class=\"tabs\">")
        if hasGlucose { m.raw("<a href=\"#day\">Day</a><a href=\"#agp\">AGP report</a><a href=\"#days\">Days</a>") }
        if reports != nil { m.raw("<a href=\"#reports\">Reports</a>") }
        let trends = MetricTrendsHTML(dailyMetrics, firstDay: firstDay, lastDay: lastDay)
        if trends != nil { m.raw("<a href=\"#trends\">Trends</a>") }
        if dailyMetrics != nil { m.raw("<a href=\"#metrics\">Daily metrics</a>") }
        if !history.isEmpty { m.raw("<a href=\"#history\">Toothbrushing</a>") }
        m.raw("</nav></div></header><main>")
        if hasGlucose {
            glucoseSections(&m)
        } else {
            // A meter user's checks are drawn on the day views like CGM readings (PageCommand): this is someone with neither.
            m.raw("<section id=\"no-glucose\" class=\"card\"><h2>No glucose readings</h2><p class=\"lead\">")
            m.escaped("The database holds no glucose readings for " + subject + ", so the day view, the AGP report and the day table "
                      + "are not on this page. Import a CGM or meter export to see them; what this person logged is below.")
            m.raw("</p></section>")
        }
        if let reports {
            m.raw("<section id=\"reports\" class=\"card\"><h2>Health reports</h2><p class=\"lead\">The calendar of reports (how many each day, "
                  + "their highest importance, ✎ a note, ! an alert; a day opens its reports and summary), the values over the week "
                  + "(each dot numbered with its importance, the daily average dashed, alert thresholds in red) and how many reports were made each day.</p>")
            ReportCalendarHTML(calendar: reports.calendar).render(&m)
            m.raw("<div class=\"history-grid\">")
            for v in reports.values { m.raw(ReportValuesSVG(view: v).element()) }
            m.raw(ReportDaysSVG(view: reports.days).element())
            m.raw("</div></section>")
        }
        trends?.section(&m)
        if let dailyMetrics {
            m.raw("<section id=\"metrics\" class=\"card\"><h2>Daily metrics</h2><p class=\"lead\">Each day's other measurements "
                  + "(Apple Health and other sources: steps, heart rate, sleep, activity …): the day's total for what adds up "
                  + "(steps, energy, distance, sleep minutes: each minute once across sources), else the day's mean; "
                  + "its count, range and sources on hover.</p>")
            dailyMetrics.render(&m)
            m.raw("</section>")
        }
        if !history.isEmpty {
            m.raw("<section id=\"history\" class=\"card\"><h2>Toothbrushing</h2><p class=\"lead\">Sessions by week, month and year.</p><div class=\"history-grid\">")
            for h in history { m.raw(HistorySVG(chart: h).element()) }
            m.raw("</div></section>")
        }
        m.raw("</main><footer>")
        m.escaped("Made by " + generator + " from the database on " + Fmt.shortDate(lastDay) + " data. Everything on this page is in this one file; it works without a network and without JavaScript.")
        m.raw("</footer><div id=\"bubble\" role=\"tooltip\" hidden></div><script>\n" + PageScript.js + "</script></body></html>\n")
        return m.text
    }

    /// The day view, the AGP report and the day table.
    func glucoseSections(_ m: inout Markup) {
        daySection(&m)
        m.raw("<section id=\"agp\" class=\"card sheet\"><h2>AGP report</h2><p class=\"lead\">The standard one-page summary of the period for clinicians (prints on one A4 page).</p>")
        periodNotice(&m)
        AGPKeyNumbers(view: agp).render(&m)
        m.raw("<div class=\"chart-scroll\">" + AGPSVG(view: agp).element() + "</div>")
        m.raw("</section>")
        m.raw("<section id=\"days\" class=\"card\"><h2>Days</h2><p class=\"lead\">Low, average and high glucose of each day with its hypo, hyper, exercise, stress and illness marks and favourites. Filter to find days; a date opens that day.</p>")
        periodNotice(&m)
        let viewable = Set(days.map(\.day))
        DayTableHTML(table: table, bands: bands, link: { viewable.contains($0) ? "#day-" + CivilDate.isoDate(fromDays: $0) : nil }).render(&m)
        m.raw("</section>")
    }

    /// Every period view says how much of the period has data, and warns when that is short of the
    /// consensus (14 days, CGM active 70 % of the time) — the numbers of the AGP's statistics.
    func periodNotice(_ m: inout Markup) { Self.periodNotice(&m, agp: agp) }

    /// The notice of a period's AGP (the page's and the app's).
    package static func periodNotice(_ m: inout Markup, agp: AGPView) {
        let s = agp.statistics
        let active = Fmt.fixed(s.activePercent ?? 0, 1) + "%"
        let facts = "<b data-stat=\"days-with-data\">\(s.daysWithData) of \(agp.days) days</b> have CGM readings · CGM active <b data-stat=\"active-percent\">\(active)</b> of the period"
        if agp.insufficientData != nil {
            m.raw("<p class=\"period-notice insufficient\" role=\"alert\"><strong>Not enough data for a reliable report.</strong> " + facts
                  + ". The consensus asks for 14 days with CGM active at least 70% of the time: read every number with care.</p>")
        } else {
            m.raw("<p class=\"period-notice\">" + facts + ".</p>")
        }
    }

    func daySection(_ m: inout Markup) {
        m.raw("<section id=\"day\" class=\"card\"><h2>Day</h2><p class=\"lead\">Glucose through the day with meals, exercise and insulin; the 30-minute forecast from the day's last reading; the three days before and after at the sides. Hover or tap for details.</p>")
        m.raw("<div class=\"controls\"><label class=\"switch\"><input type=\"checkbox\" id=\"show-basal\"\(showBasal ? " checked" : "")> Show basal insulin</label>")
        if let first = days.first?.day, let last = days.last?.day, let current = currentDay {
            m.raw("<span class=\"js-only\"><label for=\"day-picker\">Go to</label><input type=\"date\" id=\"day-picker\" min=\"\(CivilDate.isoDate(fromDays: first))\" max=\"\(CivilDate.isoDate(fromDays: last))\" value=\"\(CivilDate.isoDate(fromDays: current))\">")
            m.raw("<button type=\"button\" class=\"btn\" id=\"go-today\">\(current == days.last?.navigation.today ? "Today" : "Latest day")</button></span>")
        }
        m.raw("</div>")
        spanNote(&m)
        m.raw("<div class=\"dayviews\">")
        let onPage = Set(days.map(\.day))
        let data = dataDays
        let link: (Int64) -> String? = { day in onPage.contains(day) ? "#day-" + CivilDate.isoDate(fromDays: day) : nil }
        let offTitle: (Int64, String) -> String = { day, rel in
            guard data.contains(day) else { return "No readings, and not on this page" }
            let end: Int64 = rel == "next" ? day + 13 : day
            return "Not on this page; it has readings: " + Self.command(endingAt: end) + " --db …"
        }
        for v in days {
            DayArticle(view: v, unit: unit, isCurrent: v.day == currentDay, link: link, offTitle: offTitle).render(&m)
        }
        m.raw("</div><details class=\"all-days\"><summary>All days on this page</summary><ol>")
        for v in days.reversed() {
            let iso = CivilDate.isoDate(fromDays: v.day)
            m.raw("<li><a href=\"#day-\(iso)\">")
            m.escaped(Fmt.shortDate(v.day))
            m.raw("</a>" + (v.points.isEmpty ? " (no readings)" : "") + "</li>")
        }
        m.raw("</ol></details></section>")
    }

    /// The days the database has readings on (first...last), from the day views' navigation.
    var dataDays: ClosedRange<Int64> {
        guard let first = days.last?.navigation.first, let last = days.last?.navigation.last, first <= last else { return 1...0 }
        return first...last
    }

    /// The command that writes the 14-day page ending at `day` (what a greyed arrow or the span note offers).
    static func command(endingAt day: Int64) -> String {
        "healthpipe page --from " + CivilDate.isoDate(fromDays: day - 13) + " --to " + CivilDate.isoDate(fromDays: day)
    }

    /// Which days the page holds, and — when the readings run beyond them — how to write the others.
    func spanNote(_ m: inout Markup) {
        guard let first = days.first?.day, let last = days.last?.day else { return }
        var text = "This page holds " + Fmt.shortDate(first) + " – " + Fmt.shortDate(last) + " (\(days.count) days)."
        let data = dataDays
        if !data.isEmpty, data.lowerBound < first || data.upperBound > last {
            text += " Readings run " + Fmt.shortDate(data.lowerBound) + " – " + Fmt.shortDate(data.upperBound) + "; for other days write another page: "
            m.raw("<p class=\"page-span\">")
            m.escaped(text)
            m.raw("<code>")
            m.escaped(Self.command(endingAt: data.upperBound > last ? data.upperBound : first - 1) + " --db …")
            m.raw("</code></p>")
            return
        }
        m.raw("<p class=\"page-span\">")
        m.escaped(text)
        m.raw("</p>")
    }
}
