import Charts
import HealthPipeAnalytics
import HealthPipeCore

/// `/settings`' report reminder and thresholds: the database's stored `reports:` settings, changed by
/// forms posting to `/app/settings/alerts`, which runs `healthpipe alerts set` (AppActions) — so the
/// page checks and refuses exactly as the command and a settings file do. A reader (no `forms`)
/// sees the settings only.
struct AlertSettingsForms {
    let settings: ReportAlertSettings
    let forms: FormMarkup?
    static let action = "/app/settings/alerts"
    static let back = "/settings#alert-settings"

    func render(_ m: inout Markup) {
        m.raw("<section id=\"alert-settings\" class=\"card alert-settings\"><h2>Report reminder and alerts</h2>")
        m.raw("<p class=\"lead\">Kept in the database: the reports screen, <code>healthpipe alerts check</code> and every browser follow them.</p>")
        reminder(&m)
        thresholds(&m)
        m.raw("</section>")
    }

    private func reminder(_ m: inout Markup) {
        m.raw("<h3>Daily reminder</h3><p id=\"reminder-now\">")
        m.escaped(settings.reminderText.map { "A report is expected every day by \($0)." } ?? "No reminder.")
        m.raw("</p>")
        guard let forms else { return }
        forms.open(&m, action: Self.action, back: Self.back, extra: " id=\"reminder-form\"")
        FormMarkup.input(&m, label: "Remind me by", name: "reminder", type: "time", value: settings.reminderText ?? "20:00", attributes: "required")
        m.raw("<button type=\"submit\" class=\"btn primary\">Set reminder</button>")
        // A button of its own (not a second `reminder` value): without the script the browser sends both fields.
        if settings.reminderMinute != nil {
            m.raw("<button type=\"submit\" class=\"btn\" name=\"off\" value=\"1\" formnovalidate>No reminder</button>")
        }
        m.raw("</form>")
    }

    private func thresholds(_ m: inout Markup) {
        m.raw("<h3>Thresholds on averages</h3><ul class=\"entries\" id=\"thresholds\">")
        for t in settings.thresholds {
            m.raw("<li class=\"threshold\"><span>")
            m.escaped("\(t.days)-day average of \(t.metric.text) (importance ≥ \(t.minImportance)) \(t.above ? "above" : "below") "
                      + HealthValuesText.number(t.limit) + (t.unit.isEmpty ? "" : " " + CanonicalUnits.shown(t.unit.text)))
            m.raw("</span>")
            forms?.confirmedDelete(&m, action: Self.action, back: Self.back, field: ("remove", t.metric.text + (t.above ? " above" : " below")),
                                   what: "the watch on the \(t.days)-day average of " + t.metric.text.replacingOccurrences(of: "_", with: " "),
                                   verb: "Remove")
            m.raw("</li>")
        }
        if settings.thresholds.isEmpty { m.raw("<li class=\"empty\">No thresholds watched.</li>") }
        m.raw("</ul>")
        guard let forms else { return }
        m.raw("<div class=\"add\"><h3>Watch an average</h3>")
        forms.open(&m, action: Self.action, back: Self.back, extra: " id=\"add-threshold\"")
        m.raw("<datalist id=\"threshold-metrics\">")
        for k in HealthValues.kinds { m.raw("<option value=\"\(k.metric)\">") }
        m.raw("</datalist>")
        FormMarkup.input(&m, label: "Measure", name: "metric", attributes: "list=\"threshold-metrics\" autocomplete=\"off\" required")
        m.raw("<label class=\"field\"><span>Average is</span><select name=\"direction\">"
              + "<option value=\"above\">above</option><option value=\"below\">below</option></select></label>")
        FormMarkup.input(&m, label: "Limit (unit optional)", name: "limit", attributes: "inputmode=\"decimal\" placeholder=\"e.g. 37.5\" required")
        FormMarkup.input(&m, label: "Over days", name: "days", type: "number", value: "7", attributes: "min=\"1\" max=\"366\" required")
        m.raw("<label class=\"field\"><span>Importance at least</span><select name=\"importance\">")
        for level in 1...5 { m.raw("<option value=\"\(level)\"\(level == 4 ? " selected" : "")>\(level)</option>") }
        m.raw("</select></label><button type=\"submit\" class=\"btn primary\">Add threshold</button></form></div>")
    }
}

/// The fields of `/settings`' alert forms as `healthpipe alerts set` flags.
enum AlertSettingsFields {
    static func arguments(_ f: FormBody) -> [String] {
        var a: [String] = []
        if f.isOn("off") { a.append("--reminder=off") } else if let r = f["reminder"] { a.append("--reminder=" + r) }
        if let r = f["remove"] { a.append("--remove-threshold=" + r) }
        if let metric = f["metric"] {
            // Words of the CLI's `metric above|below VALUE[unit] days=N importance=M`; the command judges them.
            let limit = (f["limit"] ?? "").replacingOccurrences(of: " ", with: "")
            let direction = f["direction"] == "below" ? "below" : "above"
            a.append("--threshold=\(metric.replacingOccurrences(of: " ", with: "_")) \(direction) \(limit)"
                     + (f["days"].map { " days=" + $0 } ?? "") + (f["importance"].map { " importance=" + $0 } ?? ""))
        }
        return a
    }
}
