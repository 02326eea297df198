import Foundation

/// The JWTs of Nightscout's API v3 (cgm-remote-monitor `lib/authorization`: a client trades its
/// access token at `/api/v2/authorization/request/<token>` for one, then sends it as
/// `Authorization: Bearer`). HS256 over `{"sub","role","iat","exp"}` under a key derived from the API
/// secret, so rotating the secret revokes them. They live an hour: AndroidAPS asks for a new one
/// whenever an answer is 401. The access token itself is never inside (a JWT's payload is readable).
struct NightscoutJWT {
    static let lifetimeSeconds: Int64 = 3600
    private static let header = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    struct Claims: Equatable {
        var subject: String
        var role: AccessRole
        /// A person's token's person (`TokenGrant.person`): the JWT is limited to them as the token is.
        var person: String? = nil
        var issuedAt: Int64
        var expires: Int64
    }

    let secret: APISecret

    func sign(subject: String, role: AccessRole, person: String? = nil, now: Int64) -> (token: String, claims: Claims) {
        let claims = Claims(subject: subject, role: role, person: person, issuedAt: now, expires: now + Self.lifetimeSeconds)
        var payload: [String: Any] = ["sub": subject, "role": role.rawValue, "iat": now, "exp": claims.expires]
        if let person { payload["person"] = person }
        let json = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data()
        let signed = Self.header + "." + Self.base64URL(Array(json))
        return (signed + "." + Self.base64URL(mac(signed)), claims)
    }

    /// The claims of a token this server signed and that has not expired; nil for anything else
    /// (another algorithm, `none`, a forged or altered signature, an expired token).
    func verify(_ token: String, now: Int64) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.header, let signature = Self.decode(parts[2]),
              constantTimeEqual(signature, mac(parts[0] + "." + parts[1])),
              let payload = Self.decode(parts[1]),
              let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              let subject = object["sub"] as? String, let role = (object["role"] as? String).flatMap(AccessRole.init(rawValue:)),
              let iat = (object["iat"] as? NSNumber)?.int64Value, let exp = (object["exp"] as? NSNumber)?.int64Value,
              now < exp
        else { return nil }
        return Claims(subject: subject, role: role, person: object["person"] as? String, issuedAt: iat, expires: exp)
    }

    private func mac(_ text: some StringProtocol) -> [UInt8] {
        Digests.hmacSHA256(key: secret.derivedKey("jwt-hs256"), Array(text.utf8))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        s += String(repeating: "=", count: (4 - s.count % 4) % 4)
        return Data(base64Encoded: s).map(Array.init)
    }
}
