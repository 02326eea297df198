import Charts
import Foundation
import HTTPTypes
import Hummingbird

/// A form's fields (`application/x-www-form-urlencoded`, what a browser posts and the app's script
/// sends), read whole: forms are small (ServeLimits.maxBodyBytes caps them anyway).
struct FormBody: Sendable {
    private(set) var fields: [String: String] = [:]

    static func read(_ request: Request, context: ServeContext) async throws -> FormBody {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return FormBody(encoded: String(buffer: buffer))
    }

    init(encoded: String) {
        for pair in encoded.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            guard let key = kv.first, !key.isEmpty else { continue }
            fields[key] = kv.count > 1 ? kv[1] : ""
        }
    }

    /// A field's text, trimmed; nil when missing or empty.
    subscript(_ name: String) -> String? {
        guard let v = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        return v
    }

    /// A checkbox: present and not "off".
    func isOn(_ name: String) -> Bool { fields[name].map { $0 != "off" && $0 != "0" } ?? false }
}

/// What a screen needs from the request besides its path: this browser's form token (and the
/// cookie that carries it, when new), its view preferences, and the message of the form it came from.
struct AppRequest: Sendable {
    var formToken: String
    var newCookie: Cookie?
    var prefs: AppPreferences
    var message: String?
    var error: String?
    var signedIn: Bool
    /// Whether the app's forms write for this caller (`ServeContext.writesForms`); a reader gets no forms.
    var writes: Bool
    /// `?person=` of the address (nil: the default person); `person` once the store has found them.
    var requestedPerson: String?
    var person = AppPerson(name: "")
    /// The screen's path and its other query fields, which the person switcher keeps.
    var path: String
    var kept: [(String, String)]

    init(_ request: Request, forms: FormGuard, signedIn: Bool, writes: Bool) {
        let t = forms.token(for: request)
        formToken = t.token
        newCookie = t.newCookie
        prefs = AppPreferences(cookie: request.cookies[AppPreferences.cookieName]?.value)
        message = request.uri.queryParameters["msg"].map { String($0.prefix(300)) }
        error = request.uri.queryParameters["err"].map { String($0.prefix(600)) }
        self.signedIn = signedIn
        self.writes = writes
        // Read as a form's fields: a GET form sends a space in a name as `+`.
        let query = FormBody(encoded: request.uri.query ?? "").fields
        requestedPerson = Self.person(in: query)
        path = request.uri.path
        kept = query.filter { !["msg", "err", AppPerson.parameter].contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `?person=` of a request's address; nil when missing or empty (the default person).
    static func queryPerson(_ request: Request) -> String? { person(in: FormBody(encoded: request.uri.query ?? "").fields) }

    private static func person(in query: [String: String]) -> String? { query[AppPerson.parameter].flatMap { $0.isEmpty ? nil : $0 } }

    /// The forms that change the store — nil for a reader (a read-only token, an `--open-reads`
    /// visitor), so no screen can draw a form the server would refuse.
    var forms: FormMarkup? { writes ? FormMarkup(token: formToken, person: person) : nil }

    /// The form that saves only this browser's view preferences (a cookie): a reader's too.
    var preferenceForm: FormMarkup { FormMarkup(token: formToken, person: person) }

    func page(_ title: String, tab: AppPage.Tab?, people: [String], subtitle: String, body: Markup,
              status: HTTPResponse.Status = .ok) -> Response {
        AppPage(title: title, tab: tab, person: person, people: people, switcher: (path, kept), subtitle: subtitle, formToken: formToken,
                message: message, error: error, signedIn: signedIn, readOnly: !writes, body: body).response(newCookie: newCookie, status: status)
    }
}

/// Markup helpers for the app's forms: every form posts to the app with this browser's token in
/// its address (FormGuard reads it there, never from a body it does not own) and says where to go back.
struct FormMarkup {
    let token: String
    /// Whom the form writes to, and whose screen it comes back to.
    let person: AppPerson

    /// `<form method="post" action="/app/…?person=…&form_token=…">` with the page to come back to.
    func open(_ m: inout Markup, action: String, back: String, classes: String = "app-form", extra: String = "") {
        m.raw("<form method=\"post\" class=\"\(classes)\" action=\"")
        m.escaped(person.link(action) + "&form_token=" + token)
        m.raw("\"\(extra)><input type=\"hidden\" name=\"back\" value=\"")
        m.escaped(person.link(back))
        m.raw("\">")
    }

    /// A delete that asks first, without the script too: the button opens a question with the
    /// entry named and a second button that deletes ("Yes, delete"); closing it keeps the entry.
    /// `what` names it in plain words ("the meal at 12:30").
    func confirmedDelete(_ m: inout Markup, action: String, back: String, field: (name: String, value: String), what: String,
                         verb: String = "Delete") {
        m.raw("<details class=\"edit confirm-delete\"><summary class=\"btn danger\">" + verb + "</summary><p class=\"confirm-question\">")
        m.escaped(verb + " " + what + "? This cannot be undone.")
        m.raw("</p>")
        open(&m, action: action, back: back, classes: "app-form inline")
        m.raw("<input type=\"hidden\" name=\"" + field.name + "\" value=\"")
        m.escaped(field.value)
        m.raw("\"><button type=\"submit\" class=\"btn danger\">Yes, " + verb.lowercased() + "</button></form></details>")
    }

    static func input(_ m: inout Markup, label: String, name: String, type: String = "text", value: String? = nil, attributes: String = "") {
        m.raw("<label class=\"field\"><span>")
        m.escaped(label)
        m.raw("</span><input type=\"\(type)\" name=\"\(name)\"")
        if let value {
            m.raw(" value=\"")
            m.escaped(value)
            m.raw("\"")
        }
        m.raw((attributes.isEmpty ? "" : " " + attributes) + "></label>")
    }
}
