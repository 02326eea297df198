import Foundation
import HTTPTypes
import Hummingbird

/// Decides what each request may do before any route sees it — the one place where credentials are
/// read (docs/serve.md, "Security model"):
/// - a loopback server answers only Host names of this machine (no DNS rebinding);
/// - `api-secret` (the secret's SHA-1, as Nightscout's clients send it) or a valid token
///   (`?token=` or `Authorization: Bearer`) grant their role; wrong credentials are a 401, never a
///   quieter role;
/// - without credentials: reads when no secret is set (loopback only, by `BindPolicy`) or with
///   `--open-reads`; nothing otherwise;
/// - a request that changes something needs the write role from credentials (the API) or a valid
///   form token (`FormGuard`, the app's pages);
/// - the app's sign-in session (cookie `hp_session`, HttpOnly, SameSite=Strict) grants reading, and
///   the app's forms with it; a page asked for without credentials goes to `/signin`.
struct AccessGuard: RouterMiddleware {
    typealias Context = ServeContext
    let settings: ServeSettings
    let forms: FormGuard

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        if settings.isLoopback {
            guard let host = request.head.authority, BindPolicy.isLoopbackHostHeader(host) else {
                throw HTTPError(.misdirectedRequest, message: "this server answers only for localhost")
            }
        }
        var context = context
        context.role = try credentialRole(request) ?? (settings.secret == nil || settings.openReads ? .read : nil)
        if request.uri.path == SignIn.path {
            // Signing in needs no credentials; its form still needs its token (no sign-in by another site).
            if Self.changesState(request.method) { try forms.check(request) }
            return try await next(request, context)
        }
        if Self.changesState(request.method) {
            if request.uri.path.hasPrefix("/api/") {
                guard context.role == .write else { throw unauthorized(request, forWrite: true) }
            } else {
                try forms.check(request)
                // The app's own writes: its user is whoever may read it (loopback, or signed in).
                guard context.role != nil else { throw unauthorized(request, forWrite: true) }
                context.role = .write
            }
        } else if context.role == nil, !request.uri.path.hasPrefix(AuthorizationRequestRoute.prefix) {
            if !request.uri.path.hasPrefix("/api/") { return Response.redirect(to: SignIn.path) }
            throw unauthorized(request, forWrite: false)
        }
        return try await next(request, context)
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        !(method == .get || method == .head || method == .options)
    }

    /// The role the request's credentials grant; nil without any; a 401 for wrong ones.
    private func credentialRole(_ request: Request) throws -> AccessRole? {
        let hash = request.headers[HTTPField.Name("api-secret")!]
        let token = request.uri.queryParameters["token"].map(String.init) ?? bearer(request)
        guard hash != nil || token != nil else {
            // A session from before the secret changed is no session: the browser signs in again.
            guard let secret = settings.secret, let session = request.cookies[SignIn.cookieName]?.value else { return nil }
            return secret.isSession(session) ? .read : nil
        }
        guard let secret = settings.secret else {
            throw HTTPError(.unauthorized, message: "this server has no API secret: start it with API_SECRET set to accept credentials")
        }
        if let hash {
            guard secret.matchesHash(hash) else { throw HTTPError(.unauthorized, message: "api-secret does not match the server's secret") }
            return .write
        }
        // A token of ours, or an API v3 JWT made from one (expired or forged: a 401, which AndroidAPS renews it on).
        let jwt = NightscoutJWT(secret: secret), now = Int64(Date().timeIntervalSince1970)
        guard let role = token.flatMap({ secret.role(ofToken: $0) ?? jwt.verify($0, now: now)?.role }) else {
            throw HTTPError(.unauthorized, message: "unknown token")
        }
        return role
    }

    private func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    private func unauthorized(_ request: Request, forWrite: Bool) -> HTTPError {
        if settings.secret == nil {
            return HTTPError(.unauthorized, message: "this server has no API secret: start it with API_SECRET set to accept uploads")
        }
        return HTTPError(.unauthorized, message: forWrite ? "writing needs the api-secret header or a token with write access"
                                                        : "reading needs the api-secret header or a token")
    }
}
