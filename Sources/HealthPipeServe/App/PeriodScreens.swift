import Charts
import Foundation
import Hummingbird
import HealthPipeCLI
import HealthPipeCore

/// `/agp?from=&to=`: the AGP report of any window of the history (default: the 14 days ending at
/// the last day with readings), with a form to choose the window.
struct AGPScreen {
    let store: AppStore

    func render(from: String?, to: String?, request r: AppRequest) throws -> DayScreen.Rendered {
        let glucose = try store.glucose(r.prefs, person: r.person.name)
        let last = try AppDates.day(to) ?? glucose.span?.upperBound ?? store.today(r.person.name)
        let first = try AppDates.day(from) ?? last - 13
        try AppDates.check(first, last)
        let agp = try glucose.loader.agp(firstDay: first, lastDay: last)
        var m = Markup(capacity: 128 * 1024)
        m.raw("<section id=\"agp\" class=\"card sheet\"><h2>AGP report</h2>")
        PeriodForm(action: "/agp", person: r.person, first: first, last: last, span: glucose.span).render(&m)
        HealthPage.periodNotice(&m, agp: agp)
        AGPKeyNumbers(view: agp).render(&m)
        m.raw("<div class=\"chart-scroll\">" + AGPSVG(view: agp).element() + "</div></section>")
        return .init(subtitle: Fmt.shortDate(first) + " – " + Fmt.shortDate(last) + " · glucose in " + r.prefs.unit.rawValue,
                     html: m)
    }
}

/// `/days?from=&to=`: seed 002's day table over any window (default: the 90 days ending at the
/// last day with data; "All days" is the whole history), with its filters and the favourites, and the
/// window's trend charts of the other daily metrics (steps, heart rate, sleep …).
struct DaysScreen {
    let store: AppStore

    func render(from: String?, to: String?, all: Bool, request r: AppRequest) throws -> DayScreen.Rendered {
        let glucose = try store.glucose(r.prefs, person: r.person.name)
        // Without glucose, the window ends at the last day of other daily metrics (a wearable's), so they show.
        let last = try AppDates.day(to) ?? glucose.span?.upperBound
            ?? store.reader().lastOtherSummaryDay(subject: r.person.name).flatMap(CivilDate.days(fromISO:)) ?? store.today(r.person.name)
        let first = all ? (glucose.span?.lowerBound ?? last) : try AppDates.day(from) ?? last - 89
        try AppDates.check(first, last)
        let table = try glucose.loader.dayTable(firstDay: first, lastDay: last)
        var m = Markup(capacity: 256 * 1024)
        m.raw("<section id=\"days\" class=\"card\"><h2>Days</h2><p class=\"lead\">Low, average and high glucose of each day with its hypo, "
              + "hyper, exercise, stress and illness marks and favourites (★, with their note on hover). A date opens that day.</p>")
        PeriodForm(action: "/days", person: r.person, first: first, last: last, span: glucose.span).render(&m)
        let bands = try glucose.loader.bands(around: last)
        // The star toggles the day's favourite (seed 002), back to this window of the table.
        let forms = r.forms, back = "/days?from=" + CivilDate.isoDate(fromDays: first) + "&to=" + CivilDate.isoDate(fromDays: last)
        DayTableHTML(table: table, bands: bands, link: { r.person.link("/day/" + CivilDate.isoDate(fromDays: $0)) },
                     star: { m, row in
                         // A reader sees the star without the button.
                         guard let forms else { return DayTableHTML.star(&m, row) }
                         Self.starForm(&m, row, forms: forms, back: back)
                     }).render(&m)
        m.raw("</section>")
        // The same window's other daily metrics (steps, heart rate, sleep …) as the page's trend charts.
        let metrics = try PageSections.dailyMetrics(try store.reader(), subject: r.person.name, first: first, last: last)
        MetricTrendsHTML(metrics, firstDay: first, lastDay: last)?.section(&m)
        return .init(subtitle: Fmt.shortDate(first) + " – " + Fmt.shortDate(last) + " · glucose in " + r.prefs.unit.rawValue,
                     html: m)
    }
}

extension DaysScreen {
    /// The star of a row as a button: ★ takes the star away, ☆ gives it (`favourite add|remove`).
    static func starForm(_ m: inout Markup, _ row: DayLogRow, forms: FormMarkup, back: String) {
        let date = Fmt.shortDate(row.day), iso = CivilDate.isoDate(fromDays: row.day)
        forms.open(&m, action: "/app/favourite", back: back, classes: "app-form inline star-form", extra: " id=\"star-\(iso)\"")
        m.raw("<input type=\"hidden\" name=\"day\" value=\"\(iso)\">")
        m.raw("<button type=\"submit\" class=\"star-toggle\" name=\"star\" value=\"\(row.favourite ? "0" : "1")\" aria-pressed=\"\(row.favourite)\" aria-label=\"")
        m.escaped(row.favourite ? "Remove the star of " + date : "Star " + date)
        m.raw("\">")
        DayTableHTML.star(&m, row)
        m.raw("</button></form>")
    }
}

/// The window of a period screen: two dates, and links to the whole history and the latest weeks.
struct PeriodForm {
    let action: String
    let person: AppPerson
    let first: Int64
    let last: Int64
    let span: ClosedRange<Int64>?

    func render(_ m: inout Markup) {
        m.raw("<form class=\"period\" method=\"get\" action=\"\(action)\">" + person.hiddenField + "<label>From <input type=\"date\" name=\"from\" value=\"\(CivilDate.isoDate(fromDays: first))\"></label>")
        m.raw("<label>to <input type=\"date\" name=\"to\" value=\"\(CivilDate.isoDate(fromDays: last))\"></label><button type=\"submit\" class=\"btn\">Show</button>")
        if let span {
            let end = CivilDate.isoDate(fromDays: span.upperBound)
            for (n, text) in [(14, "Last 14 days"), (90, "Last 90 days")] {
                link(&m, from: span.upperBound - Int64(n) + 1, to: end, text: text)
            }
            link(&m, from: span.lowerBound, to: end, text: "Whole history")
        }
        m.raw("</form>")
    }

    private func link(_ m: inout Markup, from: Int64, to end: String, text: String) {
        m.raw("<a class=\"btn\" href=\"")
        m.escaped(person.link(action + "?from=" + CivilDate.isoDate(fromDays: from) + "&to=" + end))
        m.raw("\">" + text + "</a>")
    }
}

/// Dates in the app's addresses: YYYY-MM-DD, and a window of at most ten years (as `chart`'s);
/// anything else is a 400 that says why.
enum AppDates {
    static func invalid(_ reason: String) -> HTTPError { HTTPError(.badRequest, message: reason) }

    static func day(_ text: String?) throws -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let d = CivilDate.days(fromISO: text), PlausibleTime.earliestDay...PlausibleTime.latestDay ~= d else {
            throw invalid("not a date YYYY-MM-DD: \(text.prefix(40))")
        }
        return d
    }

    static func check(_ first: Int64, _ last: Int64) throws {
        guard first <= last else { throw invalid("the period starts after it ends") }
        guard last - first < 3660 else { throw invalid("a period is at most ten years (3,660 days)") }
    }
}
