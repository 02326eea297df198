import Charts
import Foundation
import HTTPTypes
import HealthPipeCLI
import HealthPipeCore
import Hummingbird

/// The app's addresses (docs/serve.md, "The app"): its screens (GET, HTML), its forms (POST
/// `/app/…`: the CLI's commands, then back to the screen — or JSON for the app's script) and the
/// version the script polls to redraw when anything in the database changed.
struct AppRoutes {
    let settings: ServeSettings
    let forms: FormGuard
    /// One for the server's life: it keeps what views may reuse (the fitted forecaster).
    let store: AppStore

    init(settings: ServeSettings, forms: FormGuard) {
        self.settings = settings
        self.forms = forms
        store = AppStore(path: settings.database, defaultZone: settings.timezone.flatMap(ZoneResolver.timeZone(named:)) ?? .current,
                         defaultSubject: settings.subject)
    }

    /// The form that saves only the browser's display preferences (a cookie), never the store.
    static let preferencesPath = "/app/settings"
    static let actions = ["insulin", "meal", "exercise", "entries/edit", "entries/delete", "episode", "favourite",
                          "reports/add", "reports/edit", "reports/delete", "snooze", "settings/alerts"]

    func add(to router: Router<ServeContext>) {
        router.get("/") { request, context in try await screen(request, context, tab: .day, title: "Day") { r in try DayScreen(store: store).render(day: nil, request: r) } }
        router.get("/now") { request, context in
            try await screen(request, context, tab: .now, title: "Now") { r in try NowScreen(store: store).render(request: r) }
        }
        router.get("/day") { request, _ in
            // The date picker's form without JavaScript: /day?date=2024-03-05 → /day/2024-03-05.
            // The person goes on with them (an unknown one is the day screen's 404).
            let person = AppRequest.queryPerson(request).map(AppPerson.init(name:))
            guard let day = try AppDates.day(request.uri.queryParameters["date"].map(String.init)) else { return Response.redirect(to: person?.link("/") ?? "/") }
            let path = "/day/" + CivilDate.isoDate(fromDays: day)
            return Response.redirect(to: person?.link(path) ?? path)
        }
        router.get("/day/:date") { request, context in
            let day = try AppDates.day(context.parameters.get("date"))
            return try await screen(request, context, tab: .day, title: day.map { Fmt.shortDate($0) } ?? "Day") { r in
                try DayScreen(store: store).render(day: day ?? store.today(r.person.name), request: r)
            }
        }
        router.get("/agp") { request, context in
            let q = request.uri.queryParameters
            return try await screen(request, context, tab: .agp, title: "AGP report") { r in
                try AGPScreen(store: store).render(from: q["from"].map(String.init), to: q["to"].map(String.init), request: r)
            }
        }
        router.get("/days") { request, context in
            let q = request.uri.queryParameters
            return try await screen(request, context, tab: .days, title: "Days") { r in
                try DaysScreen(store: store).render(from: q["from"].map(String.init), to: q["to"].map(String.init), all: q["all"] != nil, request: r)
            }
        }
        router.get("/reports") { request, context in
            let month = request.uri.queryParameters["month"].map(String.init)
            return try await screen(request, context, tab: .reports, title: "Reports") { r in try ReportsScreen(store: store).render(month: month, request: r) }
        }
        router.get("/settings") { request, context in
            try await screen(request, context, tab: .settings, title: "Settings") { r in try SettingsScreen(store: store).render(request: r) }
        }
        for action in Self.actions {
            router.post(RouterPath("/app/" + action)) { request, context in try await perform(action, request, context) }
        }
        router.post(RouterPath(Self.preferencesPath)) { request, context in try await saveSettings(request, context) }
        router.get("/api/app/version") { _, _ in
            let path = settings.database
            return JSONBody.response(["version": try await StoreWork.read { LiveVersion.of(database: path) }])
        }
    }

    /// A screen, read on `StoreWork.read`.
    /// The person of the address is found first: someone the database does not hold is a 404 page
    /// that says so and links everyone who is there.
    private func screen(_ request: Request, _ context: ServeContext, tab: AppPage.Tab, title: String,
                        _ body: @escaping @Sendable (AppRequest) throws -> DayScreen.Rendered) async throws -> Response {
        var asking = AppRequest(request, forms: forms, signedIn: settings.secret != nil && (context.writesForms || request.cookies[SignIn.tokenCookieName] != nil), writes: context.writesForms)
        // A person's token sees its person only: no switcher, and anyone else is "no such person" with no one listed.
        let scope = context.person
        do {
            asking.requestedPerson = try Self.person(asked: asking.requestedPerson, scope: scope)
            let asked = asking
            let (r, rendered, people) = try await StoreWork.read { [store] () throws -> (AppRequest, DayScreen.Rendered, [String]) in
                var r = asked
                r.person = AppPerson(name: try store.person(named: asked.requestedPerson))
                return (r, try body(r), scope == nil ? try store.stored().people : [])
            }
            return r.page(title, tab: tab, people: people, subtitle: rendered.subtitle, body: rendered.html)
        } catch var missing as PersonNotFound {
            if scope != nil { missing.people = [] }
            return asking.page("No such person", tab: nil, people: missing.people, subtitle: "", body: PersonNotFoundPage(missing: missing).html,
                              status: .notFound)
        }
    }

    /// A form: its command runs; then back to the screen with the command's message, or — for the
    /// app's script (`Accept: application/json`) — the message as JSON and the script redraws.
    private func perform(_ action: String, _ request: Request, _ context: ServeContext) async throws -> Response {
        let form = try await FormBody.read(request, context: context)
        // Whose screen the form is on (its address carries them); someone the database does not hold is refused.
        let subject: String, today: Int64
        do {
            let asked = try Self.person(asked: AppRequest.queryPerson(request), scope: context.person)
            (subject, today) = try await StoreWork.read { [store] in
                let person = try store.person(named: asked)
                return (person, store.today(person))
            }
        } catch let missing as PersonNotFound {
            throw HTTPError(.notFound, message: PersonNotFoundPage.sentence(missing))
        }
        guard let arguments = AppActions(database: settings.database, subject: subject, defaultTimezone: settings.timezone, today: today).arguments(action, form) else {
            throw HTTPError(.badRequest, message: "unknown form")
        }
        let outcome = try await AppActions.run(arguments)
        let ok = outcome.code == 0
        let text = (ok ? outcome.output : outcome.errors).joined(separator: "\n")
        return Self.answer(request, ok: ok, message: text.isEmpty ? (ok ? "done" : "refused (exit \(outcome.code))") : text, back: form["back"])
    }

    /// The person an address may show: the one asked for, or — for a person's token — that person,
    /// and anyone else asked for is not found (a 404 that names no one, as for a name never stored).
    static func person(asked: String?, scope: String?) throws -> String? {
        guard let scope else { return asked }
        if let asked, asked != scope { throw PersonNotFound(name: asked, people: []) }
        return scope
    }

    private func saveSettings(_ request: Request, _ context: ServeContext) async throws -> Response {
        let form = try await FormBody.read(request, context: context)
        var prefs = AppPreferences()
        prefs.unit = form["unit"] == "mgdl" ? .mgdL : .mmolL
        prefs.showBasal = form.isOn("basal")
        prefs.bands = form["bands"].flatMap { ["seeds", "consensus", "range"].contains($0) ? $0 : nil }
        var response = Self.answer(request, ok: true, message: "settings saved", back: form["back"])
        response.setCookie(Cookie(name: AppPreferences.cookieName, value: prefs.cookie, maxAge: 10 * 365 * 86_400, path: "/",
                                  secure: false, httpOnly: true, sameSite: .strict))
        return response
    }

    static func answer(_ request: Request, ok: Bool, message: String, back: String?) -> Response {
        if request.headers[.accept]?.contains("application/json") == true {
            return JSONBody.response(["ok": ok, "message": message], status: ok ? .ok : .unprocessableContent)
        }
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: ok ? "msg" : "err", value: message)]
        let target = safeBack(back)
        let (path, fragment) = target.firstIndex(of: "#").map { (String(target[..<$0]), String(target[$0...])) } ?? (target, "")
        let joined = path + (path.contains("?") ? "&" : "?") + (query.percentEncodedQuery ?? "")
        return Response.redirect(to: joined + fragment)
    }

    /// Only a path of this app (never another site: `//host`, `\\host`).
    static func safeBack(_ back: String?) -> String {
        guard let back, back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\"),
              back.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return "/" }
        return back
    }
}

/// A fingerprint of the database's files, which any commit changes — the app's, an `import`'s or
/// a `stream`'s beside it (SQLite's WAL grows; a checkpoint rewrites the file). The app's script
/// polls it and redraws when it moves.
enum LiveVersion {
    static func of(database path: String) -> String {
        [path, path + "-wal"].map { file -> String in
            var s = stat()
            guard stat(file, &s) == 0 else { return "-" }
            return "\(s.st_size).\(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec)"
        }.joined(separator: ":")
    }
}
