import Charts
import Foundation
import HealthPipeCLI
import HealthPipeCore
import SQLiteStore

/// `/reports?month=YYYY-MM`: seed 004's health log — today's reminder, the form for a new report,
/// the month calendar with each day's summary report (the average of each value), the month's
/// reports with change and delete forms, and the graphs (values over the week, reports per day).
struct ReportsScreen {
    let store: AppStore

    func render(month: String?, request r: AppRequest) throws -> DayScreen.Rendered {
        let subject = r.person.name
        let log = try store.healthLog()
        let data = ReportChartData(queries: log, path: store.path, subject: subject)
        let lastReport = try log.reportSpan(subject: subject)?.last
        let (y, mo) = try Self.month(month) ?? {
            let d = CivilDate.date(fromDays: lastReport.map { max($0, store.today(subject)) } ?? store.today(subject))
            return (d.year, d.month)
        }()
        let first = CivilDate.days(year: y, month: mo, day: 1)
        let last = first + Int64(CivilDate.daysInMonth(year: y, month: mo)) - 1
        let forms = r.forms
        let back = "/reports?month=" + Self.monthText(first)
        var m = Markup(capacity: 128 * 1024)
        try ReminderBanner(store: store).render(&m, subject: subject, forms: forms, back: back)
        if let forms { NewReportForm(forms: forms, back: back, clock: FormClock(zones: store.zones(subject))).render(&m) }

        m.raw("<section id=\"reports\" class=\"card\"><nav class=\"daynav monthnav\">")
        m.raw("<a class=\"nav prev\" rel=\"prev\" href=\"" + Markup.escape(r.person.link("/reports?month=" + Self.monthText(first - 1))) + "\">‹ "
              + Fmt.shortMonth(first - 1) + "</a><h2>")
        m.escaped(Fmt.longMonth(first))
        m.raw("</h2><a class=\"nav next\" rel=\"next\" href=\"" + Markup.escape(r.person.link("/reports?month=" + Self.monthText(last + 1))) + "\">"
              + Fmt.shortMonth(last + 1) + " ›</a></nav>")
        m.raw("<p class=\"lead\">Each day: how many reports, their highest importance, ✎ a note, ! an alert. A day opens its summary report "
              + "(the average of each value) and its reports.</p>")
        ReportCalendarHTML(calendar: try data.calendar(first: first, last: last)).render(&m)
        m.raw("</section>")

        let reports = try log.reports(subject: subject, fromDay: first, toDay: last)
        m.raw("<section id=\"month-reports\" class=\"card\"><h2>Reports of ")
        m.escaped(Fmt.longMonth(first))
        m.raw("</h2><ul class=\"entries\">")
        if reports.isEmpty { m.raw("<li class=\"empty\">No reports this month.</li>") }
        for report in reports.reversed() { ReportItem(report: report, forms: forms, back: back).render(&m) }
        m.raw("</ul></section>")

        let end = min(last, lastReport ?? last)
        let week = try log.reports(subject: subject, fromDay: end - 6, toDay: end)
        let values = try ReportChartData.metricsByUse(week).prefix(2).compactMap { try data.values(metric: $0, lastDay: end) }
        if let days = try data.days(first: first, last: last), days.total > 0 {
            m.raw("<section id=\"report-graphs\" class=\"card\"><h2>Graphs</h2><div class=\"history-grid\">")
            for v in values { m.raw(ReportValuesSVG(view: v).element()) }
            m.raw(ReportDaysSVG(view: days).element() + "</div></section>")
        }
        return .init(subtitle: "Health reports · " + Fmt.longMonth(first), html: m)
    }

    static func month(_ text: String?) throws -> (Int, Int)? {
        guard let text, !text.isEmpty else { return nil }
        guard let d = CivilDate.days(fromISO: text + "-01") else { throw AppDates.invalid("not a month YYYY-MM: \(text.prefix(20))") }
        let c = CivilDate.date(fromDays: d)
        return (c.year, c.month)
    }

    static func monthText(_ day: Int64) -> String { String(CivilDate.isoDate(fromDays: day).prefix(7)) }
}

extension Fmt {
    /// "March 2024".
    static func longMonth(_ day: Int64) -> String {
        let d = CivilDate.date(fromDays: day)
        return ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][d.month - 1]
            + " \(d.year)"
    }

    /// "Mar 2024".
    static func shortMonth(_ day: Int64) -> String { String(longMonth(day).prefix(3)) + " \(CivilDate.date(fromDays: day).year)" }
}

/// The form for a new report: at least two values (each a metric, a number with an optional unit
/// such as 100.4degF, and an importance 1–5), an optional note, and the time.
struct NewReportForm {
    let forms: FormMarkup
    let back: String
    /// "Now" on the person's clock.
    let clock: FormClock

    func render(_ m: inout Markup) {
        m.raw("<section id=\"new-report\" class=\"card\"><h2>New report</h2>")
        forms.open(&m, action: "/app/reports/add", back: back, extra: " id=\"add-report\"")
        m.raw("<datalist id=\"metrics\">")
        for k in HealthValues.kinds { m.raw("<option value=\"\(k.metric)\">") }
        m.raw("</datalist><div class=\"value-rows\">")
        let suggested = ["body_temperature", "blood_pressure_systolic", "", ""]
        for i in 0..<4 { ValueRow(index: i, metric: suggested[i], value: nil, importance: 3, removable: false).render(&m) }
        m.raw("</div>")
        FormMarkup.input(&m, label: "Note", name: "note")
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local",
                         value: clock.localNow,
                         attributes: "required")
        m.raw("<button type=\"submit\" class=\"btn primary\">Save report</button></form></section>")
    }
}

/// One value of a report form.
struct ValueRow {
    let index: Int
    let metric: String
    let value: String?
    let importance: Int
    let removable: Bool

    func render(_ m: inout Markup) {
        m.raw("<div class=\"value-row\">")
        FormMarkup.input(&m, label: "Measure", name: "metric_\(index)", value: metric, attributes: "list=\"metrics\" autocomplete=\"off\"")
        FormMarkup.input(&m, label: "Value (unit optional)", name: "value_\(index)", value: value, attributes: "inputmode=\"decimal\" placeholder=\"e.g. 37.8\"")
        m.raw("<label class=\"field\"><span>Importance</span><select name=\"importance_\(index)\">")
        for level in 1...5 { m.raw("<option value=\"\(level)\"\(level == importance ? " selected" : "")>\(level)</option>") }
        m.raw("</select></label>")
        if removable { m.raw("<label class=\"field check\"><input type=\"checkbox\" name=\"remove_\(index)\"> Remove</label>") }
        m.raw("</div>")
    }
}

/// A stored report in the month's list: its values and note, a form to change it, one to delete it
/// (a reader, without `forms`: the report only).
struct ReportItem {
    let report: HealthLogQueries.StoredReport
    let forms: FormMarkup?
    let back: String

    func render(_ m: inout Markup) {
        let r = report
        m.raw("<li class=\"entry report\" data-id=\"")
        m.escaped(r.id)
        m.raw("\"><b>")
        let when = LocalTimeText.wallClock(utc: r.start, offset: r.utcOffset)
        m.escaped(when)
        m.raw("</b> ")
        m.escaped(r.values.map { v in
            v.metric.text.replacingOccurrences(of: "_", with: " ") + " " + HealthValuesText.number(v.value)
                + (v.unit.isEmpty ? "" : " " + CanonicalUnits.shown(v.unit.text)) + " (importance \(v.importance))"
        }.joined(separator: ", "))
        if let note = r.note, !note.isEmpty {
            m.raw(" — <i>")
            m.escaped(note)
            m.raw("</i>")
        }
        guard let forms else { return m.raw("</li>") }
        m.raw("<details class=\"edit\"><summary>Change</summary>")
        forms.open(&m, action: "/app/reports/edit", back: back)
        m.raw("<input type=\"hidden\" name=\"id\" value=\"")
        m.escaped(r.id)
        m.raw("\"><div class=\"value-rows\">")
        for (i, v) in r.values.enumerated().prefix(ReportForm.rows - 2) {
            ValueRow(index: i, metric: v.metric.text, value: HealthValuesText.number(v.value) + v.unit.text, importance: v.importance, removable: true).render(&m)
        }
        for i in min(r.values.count, ReportForm.rows - 2)..<(min(r.values.count, ReportForm.rows - 2) + 2) {
            ValueRow(index: i, metric: "", value: nil, importance: 3, removable: false).render(&m)
        }
        m.raw("</div>")
        FormMarkup.input(&m, label: "Note", name: "note", value: r.note ?? "")
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local",
                         value: String(CivilDate.isoDateTime(seconds: r.start + Int64(r.utcOffset)).prefix(16)), attributes: "required")
        m.raw("<button type=\"submit\" class=\"btn primary\">Save</button></form></details>")
        forms.confirmedDelete(&m, action: "/app/reports/delete", back: back, field: ("id", r.id), what: "the report of " + when)
        m.raw("</li>")
    }
}
