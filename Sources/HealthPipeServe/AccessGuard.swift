import Foundation
import HTTPTypes
import Hummingbird

/// Decides what each request may do before its route runs — the one place where credentials are
/// read (docs/serve.md, "Security model"). It runs inside the route the router matched and judges
/// that route (`RouteAccess`, from the matched template), never the raw path:
/// - a loopback server answers only Host names of this machine (no DNS rebinding, `BindPolicy`);
/// - `api-secret` or `?secret=` (the secret's SHA-1 or SHA-512, or an access token), a token
///   (`?token=` or `Authorization: Bearer`), or a JSON object body's `secret`/`token` grant their
///   role, as cgm-remote-monitor accepts them; wrong credentials are a 401, never a quieter role;
/// - without credentials: reads when no secret is set (loopback only, by `BindPolicy`) or with
///   `--open-reads`; nothing otherwise;
/// - the API's writes need the write role; the app's forms need their form token (`FormGuard`) and
///   a caller who may write through them (`Caller.writesForms`): the loopback owner of a server
///   without a secret, a browser signed in with the secret, or write credentials — never a
///   read-only token nor an `--open-reads` visitor;
/// - a person's token (`TokenGrant.person`) limits the request to that person: the app's screens
///   and forms (`ServeContext.person`) and the API's reads and writes (`CallerPerson`, which `ServeSettings.subject` answers);
/// - a page asked for without credentials goes to `/signin`, which returns to it (`SignIn.path(returningTo:)`).
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
        var request = request
        let access = RouteAccess(endpoint: context.endpointPath)
        let caller = try await self.caller(&request, context: context, access: access)
        var context = context
        context.role = caller.role
        context.writesForms = caller.writesForms
        context.person = caller.person
        let writes = Self.changesState(request.method)
        switch access {
        case .unmatched, .tokenExchange:
            // Nothing here to protect (a 404), or the token in the path is the credential.
            break
        case .session:
            // Signing in needs no credentials; its form still needs its token (no sign-in by another site).
            if writes { try forms.check(request) }
        case .preferenceForm:
            try forms.check(request)
            guard caller.role != nil else { throw unauthorized(forWrite: false) }
        case .api:
            if writes {
                guard caller.role == .write else { throw unauthorized(forWrite: true) }
            } else if caller.role == nil {
                throw unauthorized(forWrite: false)
            }
        case .app:
            if writes {
                try forms.check(request)
                guard caller.writesForms else {
                    guard caller.role == nil else {
                        throw HTTPError(.forbidden, message: "read-only access: the app's forms write only for a browser signed in with the API secret")
                    }
                    throw unauthorized(forWrite: true)
                }
                context.role = .write
            } else if caller.role == nil {
                return Response.redirect(to: SignIn.path(returningTo: request.uri.description))
            }
        }
        return try await CallerPerson.$current.withValue(caller.person) { try await next(request, context) }
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        !(method == .get || method == .head || method == .options)
    }

    /// Who is asking: the role their credentials grant, and whether the app's forms write for them.
    struct Caller {
        var role: AccessRole?
        var writesForms: Bool
        /// A person's token's person: the caller sees and writes no one else (`TokenGrant`).
        var person: String? = nil

        init(role: AccessRole?, writesForms: Bool, person: String? = nil) {
            (self.role, self.writesForms, self.person) = (role, writesForms, person)
        }

        init(_ grant: TokenGrant) {
            self.init(role: grant.role, writesForms: grant.role == .write, person: grant.person)
        }
    }

    /// The caller a request's credentials make; a 401 for wrong ones. Read where cgm-remote-monitor
    /// reads them (`lib/authorization`): the `api-secret` header, `?secret=`, `?token=`, a bearer
    /// token, and — for a JSON object written to the API sent without any of those, on a server
    /// with a secret — its own `secret` or `token` (taken out of such a body even when other
    /// credentials came with it, so a credential is never stored and served back to readers).
    private func caller(_ request: inout Request, context: ServeContext, access: RouteAccess) async throws -> Caller {
        var hash = request.headers[HTTPField.Name("api-secret")!] ?? request.uri.queryParameters["secret"].map(String.init)
        var token = request.uri.queryParameters["token"].map(String.init) ?? bearer(request)
        // Only there can a body carry credentials: elsewhere, or without a secret to check them
        // against, the body is left to the route untouched (and unread).
        if access == .api, settings.secret != nil, Self.changesState(request.method) {
            let inBody = try await Self.bodyCredentials(&request, context: context)
            if hash == nil, token == nil { (hash, token) = inBody }
        }
        guard hash != nil || token != nil else {
            guard let secret = settings.secret else {
                // No secret: the server listens on loopback only (`BindPolicy`) and its user is this machine's.
                return Caller(role: .read, writesForms: true)
            }
            // A session from before the secret changed is no session: the browser signs in again.
            if let session = request.cookies[SignIn.cookieName]?.value, secret.isSession(session) {
                return Caller(role: .read, writesForms: true)
            }
            // A browser signed in with a token (`SignIn`): the token's person and forms, never the API's write
            // role (as the secret's session); one the secret no longer signs is no sign-in.
            if let signed = request.cookies[SignIn.tokenCookieName]?.value, let grant = secret.grant(ofToken: signed) {
                return Caller(role: .read, writesForms: grant.role == .write, person: grant.person)
            }
            return Caller(role: settings.openReads ? .read : nil, writesForms: false)
        }
        guard let secret = settings.secret else {
            throw HTTPError(.unauthorized, message: "this server has no API secret: start it with API_SECRET set to accept credentials")
        }
        if let hash {
            if secret.matchesHash(hash) { return Caller(role: .write, writesForms: true) }
            // Nightscout takes an access token where the secret goes too ("a token in the secret").
            guard let grant = secret.grant(ofToken: hash) else { throw HTTPError(.unauthorized, message: "api-secret does not match the server's secret") }
            return Caller(grant)
        }
        // A token of ours, or an API v3 JWT made from one (expired or forged: a 401, which AndroidAPS renews it on).
        let jwt = NightscoutJWT(secret: secret), now = Int64(Date().timeIntervalSince1970)
        guard let grant = token.flatMap({ secret.grant(ofToken: $0) ?? jwt.verify($0, now: now).map { TokenGrant(name: $0.subject, role: $0.role, person: $0.person) } }) else {
            throw HTTPError(.unauthorized, message: "unknown token")
        }
        return Caller(grant)
    }

    /// `secret` and `token` of a JSON object body (an upload of one document, as Nightscout reads
    /// `req.body`; after a byte-order mark as the upload reads it, `JSONBodyBytes`). The body is
    /// collected (within the upload limit) and left for the route to read — without those two
    /// fields. A body that cannot name them is neither parsed nor rewritten: it reaches the route
    /// byte for byte.
    private static func bodyCredentials(_ request: inout Request, context: ServeContext) async throws -> (String?, String?) {
        guard request.headers[.contentType]?.lowercased().contains("json") == true else { return (nil, nil) }
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let json = JSONBodyBytes.text(buffer.readableBytesView)
        guard json.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"), mayName(json),
              var object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else { return (nil, nil) }
        let (secret, token) = (object.removeValue(forKey: "secret"), object.removeValue(forKey: "token"))
        if secret != nil || token != nil, let rest = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            request.body = .init(buffer: ByteBuffer(bytes: rest))
        }
        return (secret as? String, token as? String)
    }

    /// Whether a JSON text can hold a key `secret` or `token`: spelled out, or with a `\u` escape
    /// (their letters need no other escape).
    private static func mayName<Bytes: Collection>(_ json: Bytes) -> Bool where Bytes.Element == UInt8 {
        json.firstRange(of: Array(#""secret""#.utf8)) != nil || json.firstRange(of: Array(#""token""#.utf8)) != nil
            || json.firstRange(of: Array(#"\u"#.utf8)) != nil
    }

    private func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    private func unauthorized(forWrite: Bool) -> HTTPError {
        if settings.secret == nil {
            return HTTPError(.unauthorized, message: "this server has no API secret: start it with API_SECRET set to accept uploads")
        }
        return HTTPError(.unauthorized, message: forWrite ? "writing needs the api-secret header or a token with write access"
                                                        : "reading needs the api-secret header or a token")
    }
}
