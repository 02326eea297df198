import Charts
import Foundation
import HTTPTypes
import Hummingbird

/// The frame of every screen of the app: the page's style sheet and header, the screen's tabs, a
/// message after a form, the screen's body, and the app's one script — allowed by a nonce drawn
/// for this response alone (no inline handlers, nothing from elsewhere: docs/serve.md).
struct AppPage {
    enum Tab: String, CaseIterable {
        case now = "Now", day = "Day", agp = "AGP report", days = "Days", reports = "Reports", settings = "Settings"
        var href: String {
            switch self {
            case .now: return "/now"
            case .day: return "/"
            case .agp: return "/agp"
            case .days: return "/days"
            case .reports: return "/reports"
            case .settings: return "/settings"
            }
        }
        /// The tab's text; on a phone "AGP report" is "AGP", so the six tabs fit one row at 390 px.
        var label: String { self == .agp ? "AGP<span class=\"tab-more\"> report</span>" : rawValue }
    }

    var title: String
    var tab: Tab?
    /// Whose screen this is; every tab keeps them.
    var person: AppPerson
    /// The database's people, for the switcher, and the screen it switches (path, other query fields).
    var people: [String]
    var switcher: (path: String, kept: [(String, String)])
    /// A line under the title (the period, the unit, the bands).
    var subtitle: String = ""
    /// The form token for this browser (`FormGuard`), carried by every form and the script.
    var formToken: String
    /// What the last form did (`?msg=`) or why it was refused (`?err=`).
    var message: String?
    var error: String?
    var signedIn = false
    /// A caller the app's forms do not write for: the screens draw none, and say why once here.
    var readOnly = false
    var body: Markup

    func response(newCookie: Cookie?, status: HTTPResponse.Status = .ok) -> Response {
        let nonce = Data(Digests.randomBytes(16)).base64EncodedString()
        var m = Markup(capacity: body.utf8Count + 64 * 1024)
        m.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        m.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\">")
        m.raw("<meta name=\"form-token\" content=\"\(formToken)\"><title>")
        m.escaped(title + (person.name.isEmpty ? "" : " · " + person.name) + " · HealthPipe")
        m.raw("</title>")
        m.raw(Self.style)
        m.raw("</head><body>")
        m.raw("<header class=\"top\"><div class=\"wrap\"><div class=\"brand\">HealthPipe</div><h1>")
        m.escaped(person.name.isEmpty ? "HealthPipe" : person.name)
        m.raw("</h1>")
        if !people.isEmpty { PersonSwitcher(people: people, current: person.name, path: switcher.path, kept: switcher.kept).render(&m) }
        m.raw("<p id=\"subtitle\">")
        m.escaped(subtitle)
        m.raw("</p><nav class=\"tabs\">")
        for t in Tab.allCases where tab != nil {
            m.raw("<a href=\"" + Markup.escape(person.link(t.href)) + "\"" + (t == tab ? " aria-current=\"page\"" : "") + ">" + t.label + "</a>")
        }
        if signedIn {
            m.raw("<form method=\"post\" class=\"signout\" action=\"/signout?form_token=\(formToken)\"><button type=\"submit\">Sign out</button></form>")
        }
        m.raw("</nav></div></header><main id=\"main\">")
        m.raw("<p id=\"flash\" role=\"status\" class=\"flash\(message == nil && error == nil ? " empty" : error != nil ? " bad" : "")\">")
        m.escaped(error ?? message ?? "")
        m.raw("</p>")
        if readOnly { m.raw(Self.readOnlyLine) }
        m.raw(body)
        m.raw("</main><div id=\"bubble\" role=\"tooltip\" hidden></div>")
        m.raw("<script nonce=\"\(nonce)\">\n" + AppScript.js + "</script></body></html>\n")
        var response = Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(bytes: m.utf8)))
        response.headers[.contentSecurityPolicy] = Self.policy(nonce: nonce)
        if let newCookie { response.setCookie(newCookie) }
        return response
    }

    /// Why a reader sees no forms (a read-only token, an `--open-reads` visitor).
    static let readOnlyLine = "<p id=\"read-only\" class=\"read-only\">Read-only access: you can look at everything here, but adding, "
        + "changing or deleting needs <a href=\"\(SignIn.path)\">signing in</a> with the server's API secret.</p>"

    static let style = "<style>\n" + PageStyle.css + ChartStyle.css + "\n" + DayTableHTML.filterCSS + ReportCalendarHTML.css + MetricTrendsHTML.css + AppStyle.css + "</style>"

    /// Only this response's script runs; styles are inline (the charts' SVG carries style
    /// attributes); images are data URLs; the script talks to this server only.
    static func policy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }
}
