import Charts
import Foundation
import HealthPipeCLI
import HealthPipeCore

/// `/settings`: the seeds' settings page — how the views are drawn in this browser (bands, basal
/// insulin on or off, the glucose unit: `page`'s --preset, --basal and --unit) and the database's
/// report reminder and thresholds (`AlertSettingsForms`: `healthpipe alerts set`).
struct SettingsScreen {
    let store: AppStore

    func render(request r: AppRequest) throws -> DayScreen.Rendered {
        var m = Markup(capacity: 16 * 1024)
        m.raw("<section id=\"view-settings\" class=\"card\"><h2>How the views are drawn</h2>")
        // A browser's own preferences: a reader may save them too.
        r.preferenceForm.open(&m, action: "/app/settings", back: "/settings", extra: " id=\"settings-form\"")
        m.raw("<fieldset><legend>Glucose bands</legend>")
        let stored = try store.stored().bands == nil ? "as classified (seeds)" : "as the database classifies"
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

        AlertSettingsForms(settings: try store.stored().reports, forms: r.forms).render(&m)
        return .init(subtitle: "Settings", html: m)
    }
}
