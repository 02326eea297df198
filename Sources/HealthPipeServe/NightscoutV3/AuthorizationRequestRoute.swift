import Foundation
import Hummingbird

/// `GET /api/v2/authorization/request/:accessToken` (cgm-remote-monitor `lib/authorization/endpoints.js`):
/// an access token — one of ours, `healthpipe serve token NAME` — traded for a JWT of the token's
/// role (`NightscoutJWT`), answered as Nightscout answers it: `token`, `sub`, `permissionGroups`,
/// `iat`, `exp` (seconds). The token in the path is the credential, so `AccessGuard` lets this
/// path through without another; an unknown token is a 401.
struct AuthorizationRequestRoute {
    static let prefix = "/api/v2/authorization/request/"
    static let path = RouterPath(prefix + ":accessToken")
    /// The route as the router names the matched endpoint (`RouteAccess`).
    static let template = path.description
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        router.get(Self.path) { _, context in
            let accessToken = try context.parameters.require("accessToken")
            guard let secret = settings.secret else {
                throw HTTPError(.unauthorized, message: "this server has no API secret: start it with API_SECRET set to issue tokens")
            }
            guard let grant = secret.grant(ofToken: accessToken) else { throw HTTPError(.unauthorized, message: "Unauthorized: invalid access token") }
            let (name, role) = (grant.name, grant.role)
            let (token, claims) = NightscoutJWT(secret: secret).sign(subject: name, role: role, person: grant.person, now: Int64(Date().timeIntervalSince1970))
            let permissions = role == .write ? ["api:*:read", "api:*:create", "api:*:update"] : ["api:*:read"]
            return JSONBody.response(["token": token, "sub": name, "permissionGroups": [permissions], "iat": claims.issuedAt, "exp": claims.expires])
        }
    }
}
