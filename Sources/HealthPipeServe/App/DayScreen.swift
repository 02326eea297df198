import Charts
import Foundation
import HealthPipeCLI
import HealthPipeCore
import SQLiteStore

/// `/` and `/day/YYYY-MM-DD`: one day of the whole history (seeds 000 and 002) — the day view with
/// its previous/next arrows and a date picker, what was logged that day with forms to add, change
/// and delete it, the illness and stress switches, the day's star, and today's report reminder.
struct DayScreen {
    let store: AppStore

    struct Rendered: Sendable {
        var subtitle: String
        var html: Markup
    }

    /// `day` nil: the latest day with readings (else today).
    func render(day requested: Int64?, request r: AppRequest) throws -> Rendered {
        let subject = r.person.name
        let glucose = try store.glucose(r.prefs, person: subject)
        let day = requested ?? glucose.span?.upperBound ?? store.today(subject)
        let view = try glucose.loader.dayView(day)
        let iso = CivilDate.isoDate(fromDays: day)
        let back = "/day/" + iso
        let forms = r.forms
        var m = Markup(capacity: 256 * 1024)

        m.raw("<section id=\"day\" class=\"card\"><div class=\"controls\">")
        m.raw("<form class=\"goto\" method=\"get\" action=\"/day\"><label for=\"day-picker\">Go to</label>" + r.person.hiddenField)
        m.raw("<input type=\"date\" id=\"day-picker\" name=\"date\" value=\"\(iso)\" required")
        if let span = glucose.span {
            m.raw(" min=\"\(CivilDate.isoDate(fromDays: min(span.lowerBound, day)))\" max=\"\(CivilDate.isoDate(fromDays: max(span.upperBound, store.today(subject))))\"")
        }
        m.raw("><button type=\"submit\" class=\"btn\">Go</button></form>")
        m.raw("<a class=\"btn\" href=\"" + Markup.escape(r.person.link("/")) + "\" id=\"go-latest\">Latest day</a>")
        m.raw("<label class=\"switch\"><input type=\"checkbox\" id=\"show-basal\"\(r.prefs.showBasal ? " checked" : "")> Show basal insulin</label></div>")
        if glucose.span == nil {
            m.raw("<p class=\"page-span\">No glucose readings yet: import a CGM export or run <code>healthpipe stream</code>; what you log shows here at once.</p>")
        }
        m.raw("<div class=\"app-day\" data-day=\"\(iso)\">")
        DayArticle(view: view, unit: r.prefs.unit, isCurrent: true, link: { r.person.link("/day/" + CivilDate.isoDate(fromDays: $0)) },
                   offTitle: { _, _ in "" }).render(&m)
        m.raw("</div></section>")

        let log = try store.healthLog()
        try ReminderBanner(store: store).render(&m, subject: subject, forms: forms, back: back)
        let entries = try log.entries(subject: subject, fromDay: day, toDay: day)
        LogSection(day: day, entries: entries, forms: forms, back: back, clock: FormClock(zones: store.zones(subject))).render(&m)
        let row = try glucose.loader.dayTable(firstDay: day, lastDay: day).rows.first
        let switches = try ["illness", "stress"].map { kind in
            EpisodeSwitch(kind: kind, day: day, isToday: day == store.today(subject), open: try log.openEpisode(subject: subject, subtype: kind),
                          dayEntries: entries)
        }
        HealthSection(day: day, switches: switches, favourite: row?.favourite ?? false, note: row?.note, forms: forms, back: back).render(&m)
        let bands = view.bands
        let subtitle = "glucose in " + r.prefs.unit.rawValue + " · bands: "
            + bands.bands.enumerated().map { $0.element.title + " " + bands.rangeText($0.offset, unit: r.prefs.unit) }.joined(separator: ", ")
        return Rendered(subtitle: subtitle, html: m)
    }
}

/// What was logged on a day — each entry with its change and delete forms — and the seeds' three
/// forms to add insulin, a meal or exercise (seed 000's "Add Insulin" and its siblings). A reader
/// (no `forms`) sees the entries only.
struct LogSection {
    let day: Int64
    let entries: [HealthLogQueries.StoredEntry]
    let forms: FormMarkup?
    let back: String

    /// The person's clock (`serve --timezone` for someone without a zone of their own).
    let clock: FormClock

    /// The time a new entry gets: now on the person's today, noon on another day.
    var defaultTime: String { clock.defaultTime(on: day) }

    func render(_ m: inout Markup) {
        m.raw("<section id=\"log\" class=\"card\"><h2>Entered by hand on ")
        m.escaped(Fmt.longDate(day))
        m.raw("</h2><ul class=\"entries\" id=\"entries\">")
        let shown = entries.compactMap { e in EntryKind(stored: e.event.kind.rawValue, subtype: e.event.subtype.text).map { (e, $0) } }
        // What devices and files recorded is listed under the chart; here is what the person typed.
        if shown.isEmpty { m.raw("<li class=\"empty\">Nothing entered by hand this day yet.</li>") }
        for (e, kind) in shown { entry(&m, e, kind) }
        m.raw("</ul>")
        if let forms {
            m.raw("<div class=\"add-forms\">")
            addInsulin(&m, forms)
            addMeal(&m, forms)
            addExercise(&m, forms)
            m.raw("</div>")
        }
        m.raw("</section>")
    }

    func entry(_ m: inout Markup, _ s: HealthLogQueries.StoredEntry, _ kind: EntryKind) {
        let e = s.event
        let clock = Fmt.clock(localSeconds: LocalDays.local(e.start, e.utcOffset)), text = EntryText.describe(e, kind: kind)
        m.raw("<li class=\"entry entry-\(kind.rawValue)\" data-id=\"")
        m.escaped(s.id)
        m.raw("\"><b>" + clock + "</b> ")
        m.escaped(text)
        guard !kind.isEpisode, let forms else { return m.raw("</li>") }
        m.raw("<details class=\"edit\"><summary>Change</summary>")
        forms.open(&m, action: "/app/entries/edit", back: back)
        m.raw("<input type=\"hidden\" name=\"id\" value=\"")
        m.escaped(s.id)
        m.raw("\">")
        let at = CivilDate.isoDateTime(seconds: LocalDays.local(e.start, e.utcOffset)).prefix(16)
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local", value: String(at), attributes: "required")
        switch kind {
        case .insulin:
            FormMarkup.input(&m, label: "Units", name: "units", type: "number", value: e.insulin.map { HealthValuesText.number($0) },
                             attributes: "step=\"0.05\" min=\"0.05\" required")
            m.raw("<label class=\"field check\"><input type=\"checkbox\" name=\"basal\"\(e.subtype.text == "basal" ? " checked" : "")> Basal</label>")
        case .meal:
            FormMarkup.input(&m, label: "Name", name: "name", value: e.note)
            FormMarkup.input(&m, label: "Carbs (g)", name: "carbs", type: "number", value: e.carbs.map { HealthValuesText.number($0) }, attributes: "step=\"any\" min=\"0\" required")
            FormMarkup.input(&m, label: "Protein (g)", name: "protein", type: "number", value: e.protein.map { HealthValuesText.number($0) }, attributes: "step=\"any\" min=\"0\"")
            FormMarkup.input(&m, label: "Fat (g)", name: "fat", type: "number", value: e.fat.map { HealthValuesText.number($0) }, attributes: "step=\"any\" min=\"0\"")
        case .exercise:
            FormMarkup.input(&m, label: "Name", name: "name", value: e.subtype.isEmpty ? nil : e.subtype.text)
            FormMarkup.input(&m, label: "Minutes", name: "minutes", type: "number", value: HealthValuesText.number(Double(e.end - e.start) / 60),
                             attributes: "step=\"any\" min=\"1\" required")
            intensity(&m, selected: e.intensity.isEmpty ? nil : e.intensity.text)
        default: break
        }
        m.raw("<button type=\"submit\" class=\"btn\">Save</button></form></details>")
        forms.confirmedDelete(&m, action: "/app/entries/delete", back: back, field: ("id", s.id), what: "“" + text + "” at " + clock)
        m.raw("</li>")
    }

    func addInsulin(_ m: inout Markup, _ forms: FormMarkup) {
        m.raw("<div class=\"add add-insulin\"><h3>Add insulin</h3>")
        forms.open(&m, action: "/app/insulin", back: back, extra: " id=\"add-insulin\"")
        FormMarkup.input(&m, label: "Units", name: "units", type: "number", attributes: "step=\"0.05\" min=\"0.05\" required inputmode=\"decimal\"")
        m.raw("<label class=\"field check\"><input type=\"checkbox\" name=\"basal\"> Basal (long-acting)</label>")
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local", value: defaultTime, attributes: "required")
        FormMarkup.input(&m, label: "Note", name: "note")
        m.raw("<button type=\"submit\" class=\"btn primary\">Add insulin</button></form></div>")
    }

    func addMeal(_ m: inout Markup, _ forms: FormMarkup) {
        m.raw("<div class=\"add add-meal\"><h3>Add a meal</h3>")
        forms.open(&m, action: "/app/meal", back: back, extra: " id=\"add-meal\"")
        FormMarkup.input(&m, label: "What", name: "name", attributes: "placeholder=\"e.g. Pasta\"")
        FormMarkup.input(&m, label: "Carbs (g)", name: "carbs", type: "number", attributes: "step=\"any\" min=\"0\" required inputmode=\"decimal\"")
        FormMarkup.input(&m, label: "Protein (g)", name: "protein", type: "number", attributes: "step=\"any\" min=\"0\" inputmode=\"decimal\"")
        FormMarkup.input(&m, label: "Fat (g)", name: "fat", type: "number", attributes: "step=\"any\" min=\"0\" inputmode=\"decimal\"")
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local", value: defaultTime, attributes: "required")
        m.raw("<button type=\"submit\" class=\"btn primary\">Add meal</button></form></div>")
    }

    func addExercise(_ m: inout Markup, _ forms: FormMarkup) {
        m.raw("<div class=\"add add-exercise\"><h3>Add exercise</h3>")
        forms.open(&m, action: "/app/exercise", back: back, extra: " id=\"add-exercise\"")
        FormMarkup.input(&m, label: "What", name: "name", attributes: "placeholder=\"e.g. Cycling\"")
        FormMarkup.input(&m, label: "Minutes", name: "minutes", type: "number", attributes: "step=\"any\" min=\"1\" required inputmode=\"decimal\"")
        intensity(&m, selected: nil)
        FormMarkup.input(&m, label: "Time", name: "at", type: "datetime-local", value: defaultTime, attributes: "required")
        m.raw("<button type=\"submit\" class=\"btn primary\">Add exercise</button></form></div>")
    }

    func intensity(_ m: inout Markup, selected: String?) {
        m.raw("<label class=\"field\"><span>Intensity</span><select name=\"intensity\"><option value=\"\">—</option>")
        for level in ["low", "medium", "high"] {
            m.raw("<option value=\"\(level)\"\(selected == level ? " selected" : "")>\(level)</option>")
        }
        m.raw("</select></label>")
    }
}

/// Seed 002's switches and star: illness and stress on or off (an open episode while on), and the
/// day as a favourite with a note. A reader (no `forms`) sees their states only.
struct HealthSection {
    let day: Int64
    let switches: [EpisodeSwitch]
    let favourite: Bool
    let note: String?
    let forms: FormMarkup?
    let back: String

    func render(_ m: inout Markup) {
        m.raw("<section id=\"health\" class=\"card\"><h2>Illness, stress and favourite</h2><div class=\"switches\">")
        guard let forms else { return states(&m) }
        for s in switches {
            let kind = s.kind, on = s.state != nil
            forms.open(&m, action: "/app/episode", back: back, classes: "app-form switch-form", extra: " id=\"switch-\(kind)\"")
            m.raw("<input type=\"hidden\" name=\"kind\" value=\"\(kind)\"><input type=\"hidden\" name=\"on\" value=\"\(on ? "0" : "1")\">")
            m.raw("<input type=\"hidden\" name=\"day\" value=\"\(CivilDate.isoDate(fromDays: day))\">")
            if let id = s.removedID {
                m.raw("<input type=\"hidden\" name=\"id\" value=\"")
                m.escaped(id)
                m.raw("\">")
            }
            m.raw("<button type=\"submit\" role=\"switch\" aria-checked=\"\(on)\" class=\"toggle\(on ? " on" : "")\">")
            m.raw("<span class=\"knob\"></span>" + kind.prefix(1).uppercased() + kind.dropFirst() + "</button><small>")
            s.writeState(&m)
            m.raw("</small></form>")
        }
        m.raw("</div>")
        forms.open(&m, action: "/app/favourite", back: back, classes: "app-form favourite", extra: " id=\"favourite\"")
        m.raw("<input type=\"hidden\" name=\"day\" value=\"\(CivilDate.isoDate(fromDays: day))\">")
        m.raw("<span class=\"star big\(favourite ? " on" : "")\" aria-hidden=\"true\">\(favourite ? "★" : "☆")</span>")
        FormMarkup.input(&m, label: "Note for this day", name: "note", value: note)
        m.raw("<button type=\"submit\" class=\"btn primary\" name=\"star\" value=\"1\">\(favourite ? "Save note" : "★ Star this day")</button>")
        if favourite { m.raw("<button type=\"submit\" class=\"btn\" name=\"star\" value=\"0\">Remove star</button>") }
        m.raw("</form></section>")
    }

    /// What the switches and the star say, without their forms.
    private func states(_ m: inout Markup) {
        for s in switches {
            m.raw("<p class=\"switch-state\" id=\"switch-\(s.kind)\"><b>" + s.kind.prefix(1).uppercased() + s.kind.dropFirst() + ":</b> ")
            s.writeState(&m)
            m.raw("</p>")
        }
        m.raw("</div><p class=\"favourite\" id=\"favourite\"><span class=\"star big\(favourite ? " on" : "")\" aria-hidden=\"true\">\(favourite ? "★" : "☆")</span> ")
        m.raw(favourite ? "A favourite day" : "Not starred")
        if let note, !note.isEmpty {
            m.raw(": ")
            m.escaped(note)
        }
        m.raw("</p></section>")
    }
}

/// An illness or stress switch on the day shown: on while an open episode had begun by that day, or
/// when the day has its own (one-day) episode. Switched on, today starts an open episode now and
/// another day gets an episode of that whole day (00:00–23:59); switched off, today's open episode
/// ends now, an episode begun on the day shown is deleted, and an open one begun earlier ends at the
/// day's midnight (`AppActions`).
struct EpisodeSwitch {
    let kind: String
    let day: Int64
    let isToday: Bool
    let open: HealthLogQueries.StoredEntry?
    let dayEntries: [HealthLogQueries.StoredEntry]

    enum State {
        case running(HealthLogQueries.StoredEntry)
        case thisDay(HealthLogQueries.StoredEntry)
    }

    var state: State? {
        if let open, open.event.localDay <= day { return .running(open) }
        return dayEntries.first { $0.event.kind == .episode && $0.event.subtype.text == kind && !EpisodeSpan.isOpen($0.event) }.map { .thisDay($0) }
    }

    /// "on since 2024-03-05 08:00", "on this day", "off".
    func writeState(_ m: inout Markup) {
        switch state {
        case .running(let open)?: m.escaped("on since " + LocalTimeText.wallClock(utc: open.event.start, offset: open.event.utcOffset))
        case .thisDay?: m.raw("on this day")
        case nil: m.raw("off")
        }
    }

    /// The episode switching off deletes: one begun on the day shown (today's open one is ended instead).
    var removedID: String? {
        switch state {
        case .thisDay(let e)?: return e.id
        case .running(let e)? where e.event.localDay == day && !isToday: return e.id
        default: return nil
        }
    }
}

/// Numbers as a form shows them: no trailing zeros (4.5, 12).
enum HealthValuesText {
    static func number(_ v: Double) -> String { Fmt.amount((v * 100).rounded() / 100, 2) }
}
