import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCLI
import HealthPipeCore

/// Seed 004's notifications inside the app: what `healthpipe alerts check` would announce now —
/// today's report reminder (with "write it" and a snooze to a later time of the same day) and the
/// averages over their threshold. Nothing is drawn when nothing is due.
struct ReminderBanner {
    let store: AppStore

    /// `forms` nil: a reader, who is told what is due but given no buttons to act on it.
    func render(_ m: inout Markup, subject: String, forms: FormMarkup?, back: String) throws {
        let now = Int64(Date().timeIntervalSince1970)
        // The reminder falls due on the person's clock (`healthpipe alerts check` reads it so too).
        let zones = store.zones(subject)
        let checker = AlertsDue(queries: try store.healthLog(), settings: try store.stored().reports, zone: zones.zone(at: now))
        let due = try checker.due(subject: subject, now: now)
        guard !due.isEmpty else { return }
        m.raw("<section id=\"reminders\" class=\"card due\" role=\"alert\"><h2>Due now</h2><ul>")
        for d in due {
            m.raw("<li class=\"due-\(d.kind == .reminder ? "reminder" : "alert")\">")
            if d.kind == .reminder {
                // The CLI's words name its commands; here the buttons beside it are the way.
                m.escaped("No health report yet today — it was due at " + LocalTimeText.wallClock(utc: d.due, offset: d.offset).suffix(5) + ".")
            } else {
                m.escaped(d.text)
            }
            if d.kind == .reminder, let forms {
                m.raw(" <a class=\"btn primary\" href=\"" + Markup.escape(forms.person.link("/reports#new-report")) + "\">Write today's report</a>")
                forms.open(&m, action: "/app/snooze", back: back, classes: "app-form inline snooze", extra: " id=\"snooze\"")
                // Half an hour on, but no later than 23:59 of the person's today.
                let offset = Int64(zones.offset(at: now))
                let later = min(now + 30 * 60, (zones.day(at: now) + 1) * 86_400 - offset - 60)
                FormMarkup.input(&m, label: "Remind me again at", name: "until", type: "time", value: FormClock(zones: zones, now: now).clock(later),
                                 attributes: "required")
                m.raw("<button type=\"submit\" class=\"btn\">Snooze</button></form>")
            }
            m.raw("</li>")
        }
        m.raw("</ul></section>")
    }
}
