import Charts
import Foundation
import HealthPipeCore

/// `/now`: the screen to glance at (issue 38 item 4) — the latest reading large, its age, trend
/// arrow and change; a reading older than 15 minutes said plainly ("No current reading") and never
/// drawn as the current value; time in range today, the last dose and meal, what is due and the
/// recent alarms. Times are the readings' own clock, "today" the person's (`AppStore.today`).
struct NowScreen {
    let store: AppStore

    func render(request r: AppRequest, now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> DayScreen.Rendered {
        let subject = r.person.name
        let glucose = try store.glucose(r.prefs, person: subject)
        let today = store.today(subject)
        // Today and yesterday (the change across midnight, the last dose of last night), and the last
        // day with readings when that is earlier (a stale value is still named).
        var days = try glucose.loader.dayViews((today - 1)...today)
        if let last = glucose.span?.upperBound, last < today - 1 { days += try glucose.loader.dayViews((last - 1)...last) }
        let v = NowView(days: days, today: today, now: now)
        var m = Markup(capacity: 16 * 1024)
        m.raw("<section id=\"now\" class=\"card now\" data-now=\"\(now)\">")
        current(&m, v)
        m.raw("<dl class=\"now-facts\">")
        fact(&m, "Time in range today") {
            if v.today.count == 0 { return $0.raw("no readings yet today") }
            $0.raw("<b>" + Fmt.fixed(100 * Double(v.today.inRange) / Double(v.today.count), 0) + " %</b> ")
            $0.escaped("(\(v.today.inRange) of \(v.today.count) " + (v.today.checks ? "BG checks" : "readings") + " in range)")
        }
        // The days read are today and yesterday, and those of the last reading when it is older.
        let none = v.isStale && v.latest != nil ? "none on the days of the last reading" : "none in the last two days"
        fact(&m, "Last dose") { Self.marker(&$0, v.lastDose, now: now, none: none) }
        fact(&m, "Last meal") { Self.marker(&$0, v.lastMeal, now: now, none: none) }
        m.raw("</dl>")
        alarms(&m, v)
        m.raw("<p class=\"now-links\"><a class=\"btn\" href=\"" + Markup.escape(r.person.link("/")) + "\">The day view</a></p></section>")
        try ReminderBanner(store: store).render(&m, subject: subject, forms: r.forms, back: "/now")
        return .init(subtitle: "Now · glucose in " + r.prefs.unit.rawValue, html: m)
    }

    /// The value, large, with its arrow — or, when stale, a plain sentence and the old value small.
    private func current(_ m: inout Markup, _ v: NowView) {
        guard let l = v.latest, let age = v.age else {
            return m.raw("<p class=\"now-none\" id=\"now-value\">No glucose readings yet.</p>")
        }
        let value = v.unit.text(l.mgdl) + " " + v.unit.rawValue, ago = NowView.ageText(seconds: age)
        let what = l.isCheck ? "BG check" : "reading"
        if v.isStale {
            m.raw("<p class=\"now-stale\" id=\"now-value\" role=\"alert\"><b>No current reading.</b> ")
            // A day or more ago: its date too, not only a clock time that reads like today's.
            let when = age < 86_400 ? "at " + l.clock : "on " + Fmt.shortDate(LocalDays.day(l.utc, l.offset)) + " at " + l.clock
            m.escaped("The last \(what) was \(value) \(when), \(ago).")
            m.raw("</p>")
            return
        }
        let band = v.band
        m.raw("<p class=\"now-value level\(band?.level ?? 0)\" id=\"now-value\"><span class=\"value\"")
        if let band { m.raw(" style=\"color:\(band.ink)\"") }
        m.raw(">" + v.unit.text(l.mgdl) + "</span> <span class=\"unit\">" + v.unit.rawValue + "</span>")
        if let t = v.trend {
            m.raw(" <span class=\"arrow\" role=\"img\" aria-label=\"\(t.words)\" title=\"\(t.words)\">\(t.arrow)</span>")
        }
        m.raw("</p><p class=\"now-sub\">")
        m.escaped((band.map { $0.title + " · " } ?? "") + (l.isCheck ? "BG check at " : "at ") + l.clock + " · " + ago)
        if let d = v.deltaText, let t = v.trend { m.escaped(" · " + d + " in 5 min, " + t.words) }
        m.raw("</p>")
        if let band, band.level != 0 {
            let urgent = abs(band.level) >= 2
            m.raw("<p class=\"now-alert\(urgent ? " urgent" : "")\" role=\"alert\">")
            m.escaped((urgent ? "Urgent: " : "") + band.title + " (" + value + ")")
            m.raw("</p>")
        }
    }

    private func fact(_ m: inout Markup, _ term: String, _ body: (inout Markup) -> Void) {
        m.raw("<div><dt>")
        m.escaped(term)
        m.raw("</dt><dd>")
        body(&m)
        m.raw("</dd></div>")
    }

    private static func marker(_ m: inout Markup, _ marker: DayView.Marker?, now: Int64, none: String) {
        guard let marker else { return m.escaped(none) }
        m.escaped(marker.detail + " (" + NowView.ageText(seconds: max(0, now - marker.utc)) + ")")
    }

    private func alarms(_ m: inout Markup, _ v: NowView) {
        guard !v.alarms.isEmpty else { return }
        m.raw("<h3>Alarms and pump events, last 3 hours</h3><ul class=\"entries now-alarms\">")
        for a in v.alarms {
            m.raw("<li><b>" + a.clock + "</b> ")
            m.escaped(a.sentence)
            m.raw("</li>")
        }
        m.raw("</ul>")
    }
}
