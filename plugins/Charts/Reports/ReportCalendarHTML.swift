import HealthPipeCore

/// The health log's month calendar on the page: a Monday-first grid per month, each day with
/// reports a link showing how many there are and their highest importance (1–5), marked when a
/// note or an alert is on it; below, each such day's reports, its summary report (the average of
/// each value) and alerts. Readable without JavaScript; with it, a link opens its day and a select
/// keeps only days whose highest importance reaches a level (seed 004's filter).
public struct ReportCalendarHTML {
    public var calendar: ReportCalendar

    public init(calendar: ReportCalendar) { self.calendar = calendar }

    package static let css = """
    .calendar-months{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:14px;margin:8px 0 12px}
    table.calendar{border-collapse:collapse;width:100%;table-layout:fixed;font-size:13px}
    table.calendar caption{font-weight:600;text-align:left;padding:0 0 4px}
    table.calendar th{font-weight:500;color:#6B7280;font-size:12px;padding:2px 0}
    table.calendar td{border:1px solid #E5E7EB;height:44px;vertical-align:top;padding:0}
    table.calendar td.out{background:#F9FAFB;color:#9CA3AF}
    table.calendar .num{display:block;padding:2px 4px;font-size:12px}
    table.calendar a.cal-link{display:block;height:100%;text-decoration:none;color:inherit;background:#EEF2FF}
    table.calendar a.cal-link:hover,table.calendar a.cal-link:focus{outline:2px solid #4338CA;outline-offset:-2px}
    table.calendar .badges{display:flex;gap:3px;padding:0 3px;flex-wrap:wrap;align-items:center}
    table.calendar .count{font-weight:700;color:#1E1B4B}
    table.calendar .imp{border-radius:8px;padding:0 4px;font-size:11px;color:#fff}
    table.calendar .alert-mark{color:#B91C1C;font-weight:700}
    table.calendar td.dim a.cal-link{background:none;opacity:.45}
    .report-day{border-top:1px solid #E5E7EB;padding:6px 0}
    .report-day>summary{cursor:pointer;font-weight:600}
    .report-day[hidden]{display:none}
    .report-day table{border-collapse:collapse;margin:6px 0;font-size:13px}
    .report-day td,.report-day th{padding:2px 8px 2px 0;text-align:left}
    .report-day ul{margin:4px 0;padding-left:18px}
    .report-day .alert{color:#B91C1C;margin:4px 0}
    """

    package func render(_ m: inout Markup) {
        m.raw("<div class=\"js-only calendar-filter\"><label for=\"importance-filter\">Days with importance at least</label>")
        m.raw("<select id=\"importance-filter\"><option value=\"1\">1 (every day)</option>")
        for level in 2...5 { m.raw("<option value=\"\(level)\">\(level)</option>") }
        m.raw("</select></div><div class=\"calendar-months\">")
        for month in calendar.months { monthTable(&m, month) }
        m.raw("</div>")
        let days = calendar.days.keys.filter { $0 >= calendar.firstDay && $0 <= calendar.lastDay && !(calendar.days[$0]!.reports.isEmpty) }
        for day in days.sorted(by: >) { dayDetails(&m, day, calendar.days[day]!) }
    }

    private func monthTable(_ m: inout Markup, _ first: Int64) {
        let (y, mo, _) = CivilDate.date(fromDays: first)
        let length = Int64(CivilDate.daysInMonth(year: y, month: mo))
        m.raw("<table class=\"calendar\"><caption>" + Fmt.longMonths[mo - 1] + " \(y)</caption><thead><tr>")
        for w in Fmt.weekdays { m.raw("<th scope=\"col\">" + w + "</th>") }
        m.raw("</tr></thead><tbody><tr>")
        let lead = Int64(Fmt.weekdayIndex(first))
        for _ in 0..<lead { m.raw("<td class=\"blank\"></td>") }
        for day in first..<(first + length) {
            if day != first, Fmt.weekdayIndex(day) == 0 { m.raw("</tr><tr>") }
            cell(&m, day, dayOfMonth: Int(day - first) + 1)
        }
        let trail = (7 - (lead + length) % 7) % 7
        for _ in 0..<trail { m.raw("<td class=\"blank\"></td>") }
        m.raw("</tr></tbody></table>")
    }

    private func cell(_ m: inout Markup, _ day: Int64, dayOfMonth: Int) {
        let inPeriod = day >= calendar.firstDay && day <= calendar.lastDay
        guard inPeriod, let d = calendar.days[day], !d.reports.isEmpty else {
            m.raw("<td class=\"\(inPeriod ? "none" : "out")\"><span class=\"num\">\(dayOfMonth)</span></td>")
            return
        }
        let importance = d.maxImportance
        var title = "\(Fmt.shortDate(day)): \(d.reports.count) report\(d.reports.count == 1 ? "" : "s"), highest importance \(importance)"
        if d.hasNote { title += ", with a note" }
        if !d.alerts.isEmpty { title += "; " + d.alerts.joined(separator: "; ") }
        m.raw("<td class=\"has-reports\" data-importance=\"\(importance)\"><a class=\"cal-link\" href=\"#reports-\(CivilDate.isoDate(fromDays: day))\" title=\"")
        m.escaped(title)
        m.raw("\"><span class=\"num\">\(dayOfMonth)</span><span class=\"badges\"><span class=\"count\">\(d.reports.count)</span>")
        // The report graphs' importance colours (ImportanceStyle), the number always written too.
        m.raw("<span class=\"imp imp-\(importance)\" style=\"background:\(ImportanceStyle.fill(importance))\">\(importance)</span>")
        if d.hasNote { m.raw("<span aria-label=\"note\">✎</span>") }
        if !d.alerts.isEmpty { m.raw("<span class=\"alert-mark\" aria-label=\"alert\">!</span>") }
        m.raw("</span></a></td>")
    }

    private func dayDetails(_ m: inout Markup, _ day: Int64, _ d: ReportCalendar.Day) {
        m.raw("<details class=\"report-day\" id=\"reports-\(CivilDate.isoDate(fromDays: day))\" data-importance=\"\(d.maxImportance)\"><summary>")
        m.escaped(Fmt.shortDate(day) + " · \(d.reports.count) report\(d.reports.count == 1 ? "" : "s") · highest importance \(d.maxImportance)"
                  + (d.alerts.isEmpty ? "" : " · \(d.alerts.count) alert\(d.alerts.count == 1 ? "" : "s")"))
        m.raw("</summary>")
        for a in d.alerts {
            m.raw("<p class=\"alert\" role=\"note\">")
            m.escaped(a)
            m.raw("</p>")
        }
        if !d.summary.isEmpty {
            m.raw("<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">Summary</th>"
                  + "<th scope=\"col\">Average</th><th scope=\"col\">Range</th><th scope=\"col\">Values</th><th scope=\"col\">Impor&shy;tance</th></tr></thead><tbody>")
            for s in d.summary {
                m.raw("<tr><th scope=\"row\">")
                m.escaped(s.metric.text.replacingOccurrences(of: "_", with: " "))
                m.raw("</th><td>")
                m.escaped(Fmt.amount(s.mean, 2) + (s.unit.text.isEmpty ? "" : " " + CanonicalUnits.shown(s.unit.text)))
                m.raw("</td><td>")
                m.escaped(s.count > 1 ? Fmt.amount(s.min, 2) + "–" + Fmt.amount(s.max, 2) : "")
                m.raw("</td><td>\(s.count)</td><td>\(s.maxImportance)</td></tr>")
            }
            m.raw("</tbody></table></div>")
        }
        m.raw("<ul>")
        for r in d.reports.sorted(by: { $0.utc < $1.utc }) {
            m.raw("<li><b>" + Fmt.clock(localSeconds: LocalDays.local(r.utc, r.offset)) + "</b> ")
            m.escaped(r.values.map { v in
                v.metric.replacingOccurrences(of: "_", with: " ") + " " + Fmt.amount(v.value, 2) + (v.unit.isEmpty ? "" : " " + CanonicalUnits.shown(v.unit))
                    + " (importance \(v.importance))"
            }.joined(separator: ", "))
            if let note = r.note, !note.isEmpty {
                m.raw(" — <i>")
                m.escaped(note)
                m.raw("</i>")
            }
            m.raw("</li>")
        }
        m.raw("</ul></details>")
    }
}
