import Charts
import Foundation
import HTTPTypes
import Hummingbird

/// `/signin` and `/signout`: with an API secret set, a browser signs in by typing the secret
/// (compared by its SHA-1 in constant time, as the api-secret header is) and gets a session cookie
/// — HttpOnly, SameSite=Strict — that `AccessGuard` accepts for reading and for the app's forms.
struct SignIn {
    static let path = "/signin"
    static let signOutPath = "/signout"
    static let cookieName = "hp_session"
    /// A browser signed in with a token of `healthpipe serve token` (a follower's) keeps it here.
    static let tokenCookieName = "hp_token"
    /// Thirty days, then the secret again.
    static let maxAge = 30 * 86_400
    /// The page a signed-out visitor asked for, to return to after signing in (`?next=`, a form field).
    static let nextField = "next"

    /// Where a visitor without credentials who asked for `target` is sent: the sign-in form, with the
    /// page to come back to when it is one of this app's own paths (`AppRoutes.safeBack`: never
    /// another site) and not the home screen.
    static func path(returningTo target: String) -> String {
        let back = AppRoutes.safeBack(target)
        guard back != "/" else { return path }
        return path + "?" + nextField + "=" + AppPerson.encoded(back)
    }

    let settings: ServeSettings
    let forms: FormGuard

    func add(to router: Router<ServeContext>) {
        router.get(RouterPath(Self.path)) { request, _ in form(request) }
        router.post(RouterPath(Self.path)) { request, context in try await signIn(request, context) }
        router.post(RouterPath(Self.signOutPath)) { _, _ in
            var response = Response.redirect(to: settings.secret == nil ? "/" : Self.path)
            for name in [Self.cookieName, Self.tokenCookieName] {
                response.setCookie(Cookie(name: name, value: "", maxAge: 0, path: "/", secure: false, httpOnly: true, sameSite: .strict))
            }
            return response
        }
    }

    private func form(_ request: Request) -> Response {
        let r = AppRequest(request, forms: forms, signedIn: false, writes: false)
        var m = Markup()
        m.raw("<section class=\"card signin\"><h2>Sign in</h2>")
        if settings.secret == nil {
            m.raw("<p>This server has no API secret: there is nothing to sign in to. <a href=\"/\">Open the app</a>.</p></section>")
        } else {
            m.raw("<p class=\"lead\">Type the server's API secret (the one uploaders use), or the token you were given.</p>")
            m.raw("<form method=\"post\" action=\"\(Self.path)?form_token=\(r.formToken)\" class=\"signin-form\">")
            let back = AppRoutes.safeBack(request.uri.queryParameters[Substring(Self.nextField)].map(String.init))
            if back != "/" { m.raw("<input type=\"hidden\" name=\"\(Self.nextField)\" value=\"" + Markup.escape(back) + "\">") }
            FormMarkup.input(&m, label: "API secret or token", name: "secret", type: "password", attributes: "required autocomplete=\"current-password\" autofocus")
            m.raw("<button type=\"submit\" class=\"btn primary\">Sign in</button></form></section>")
        }
        return AppPage(title: "Sign in", tab: nil, person: AppPerson(name: ""), people: [], switcher: ("/", []), formToken: r.formToken, message: nil, error: r.error,
                       body: m).response(newCookie: r.newCookie)
    }

    private func signIn(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let secret = settings.secret else { return Response.redirect(to: "/") }
        let form = try await FormBody.read(request, context: context)
        let typed = form.fields["secret"] ?? "", back = AppRoutes.safeBack(form[Self.nextField])
        // A token signs in as what it grants (a follower's: read, one person), kept in its own cookie.
        if !secret.matchesPassphrase(typed), secret.grant(ofToken: typed.trimmingCharacters(in: .whitespaces)) != nil {
            var response = Response.redirect(to: back)
            response.setCookie(Cookie(name: Self.tokenCookieName, value: typed.trimmingCharacters(in: .whitespaces), maxAge: Self.maxAge, path: "/",
                                      secure: false, httpOnly: true, sameSite: .strict))
            return response
        }
        guard secret.matchesPassphrase(typed) else {
            try await Task.sleep(for: .milliseconds(300))  // a guesser waits; the person barely notices
            let again = Self.path(returningTo: back)
            return Response.redirect(to: again + (again.contains("?") ? "&" : "?") + "err="
                                     + "That is not the server's API secret.".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        }
        var response = Response.redirect(to: back)
        response.setCookie(Cookie(name: Self.cookieName, value: secret.newSession(), maxAge: Self.maxAge, path: "/",
                                  secure: false, httpOnly: true, sameSite: .strict))
        return response
    }
}
