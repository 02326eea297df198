import Charts
import Foundation
import HealthPipeCLI
import HealthPipeCore

/// `/settings`: the seeds' settings page — how the views are drawn in this browser (bands, basal
/// insulin on or off, the glucose unit: `page`'s --preset, --basal and --unit) and the stored report
/// reminder and thresholds (`reaggregate --config` changes those; they are shown here).
struct SettingsScreen {
    let store: AppStore

    func render(request r: AppRequest) throws -> DayScreen.Rendered {
        let subject = try store.subject()
        let forms = FormMarkup(token: r.formToken)
        var m = Markup(capacity: 16 * 1024)
        m.raw("<section id=\"view-settings\" class=\"card\"><h2>How the views are drawn</h2>")
        forms.open(&m, action: "/app/settings", back: "/settings", extra: " id=\"settings-form\"")
        m.raw("<fieldset><legend>Glucose bands</legend>")
        let stored = StoredBands.scheme(at: store.path) == nil ? "as classified (seeds)" : "as the database classifies"
        for (value, text) in [("", "The database's (" + stored + ")"), ("seeds", "Seeds: low < 4, high > 10 mmol/L"),
                              ("consensus", "Consensus: 3.9–10 mmol/L, with very low and very high"), ("range", "Range")] {
            m.raw("<label class=\"field check\"><input type=\"radio\" name=\"bands\" value=\"\(value)\"\((r.prefs.bands ?? "") == value ? " checked" : "")> ")
            m.escaped(text)
            m.raw("</label>")
        }
        m.raw("</fieldset><fieldset><legend>Glucose unit</legend>")
        for u in DisplayUnit.allCases {
            m.raw("<label class=\"field check\"><input type=\"radio\" name=\"unit\" value=\"\(u == .mgdL ? "mgdl" : "mmol")\"\(r.prefs.unit == u ? " checked" : "")> \(u.rawValue)</label>")
        }
        m.raw("</fieldset><fieldset><legend>Basal insulin</legend><label class=\"field check\"><input type=\"checkbox\" name=\"basal\" id=\"basal-setting\"")
        m.raw((r.prefs.showBasal ? " checked" : "") + "> Show basal insulin on the day view</label></fieldset>")
        m.raw("<button type=\"submit\" class=\"btn primary\">Save settings</button></form></section>")

        let alerts = try ReportSettings.stored(store.path)
        m.raw("<section id=\"alert-settings\" class=\"card\"><h2>Report reminder and alerts</h2><p>Reminder: <b>")
        m.escaped(alerts.reminderText ?? "none")
        m.raw("</b></p><ul>")
        for t in alerts.thresholds {
            m.raw("<li>")
            m.escaped("\(t.days)-day average of \(t.metric.text) (importance ≥ \(t.minImportance)) \(t.above ? "above" : "below") "
                      + HealthValuesText.number(t.limit) + (t.unit.isEmpty ? "" : " " + CanonicalUnits.shown(t.unit.text)))
            m.raw("</li>")
        }
        if alerts.thresholds.isEmpty { m.raw("<li>No thresholds watched.</li>") }
        m.raw("</ul><p class=\"lead\">These are the database's settings: change them with <code>healthpipe reaggregate --db … --config settings.yml</code> "
              + "(docs/reports.md).</p></section>")
        return .init(subject: subject, subtitle: "Settings", html: m.text)
    }
}
