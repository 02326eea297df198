import Foundation

/// The API secret, as Nightscout has it: the user's passphrase (at least 12 characters), of which
/// clients send the SHA-1 hex in the `api-secret` header (xDrip+, AndroidAPS, Loop and Trio all do).
/// Tokens are derived from it, so rotating the secret revokes every token (`healthpipe serve token`).
public struct APISecret: Sendable {
    /// Nightscout refuses a shorter API_SECRET; so do we.
    public static let minimumLength = 12

    let sha1Hex: String
    /// cgm-remote-monitor accepts the SHA-512 hex as well (`lib/server/enclave.js`).
    let sha512Hex: String
    /// The HMAC key for tokens: the secret's SHA-256.
    private let key: [UInt8]

    public init(_ secret: String) throws {
        guard secret.count >= Self.minimumLength else {
            throw ServeError.configuration("the API secret must have at least \(Self.minimumLength) characters (as Nightscout requires)")
        }
        sha1Hex = Self.sha1Hex(secret)
        sha512Hex = Digests.hex(Digests.hash(.sha512, secret))
        key = Digests.hash(.sha256, secret)
    }

    /// The secret from `--secret-file` (its first line), else from the `API_SECRET` environment
    /// variable as Nightscout reads it; nil when neither is set.
    public static func load(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APISecret? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw ServeError.configuration("--secret-file \(file): cannot read it")
            }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return try APISecret(line.trimmingCharacters(in: .whitespaces))
        }
        guard let value = environment["API_SECRET"], !value.isEmpty else { return nil }
        return try APISecret(value)
    }

    static func sha1Hex(_ text: String) -> String {
        Digests.hex(Digests.hash(.sha1, text))
    }

    /// Whether an `api-secret` header value is the secret's SHA-1 or SHA-512 (hex, either case).
    func matchesHash(_ value: String) -> Bool {
        let sent = Array(value.lowercased().utf8)
        return constantTimeEqual(sent, Array(sha1Hex.utf8)) || constantTimeEqual(sent, Array(sha512Hex.utf8))
    }

    /// Whether a typed passphrase is the secret (the app's sign-in): compared by SHA-1, in constant time.
    func matchesPassphrase(_ typed: String) -> Bool {
        constantTimeEqual(Array(Self.sha1Hex(typed).utf8), Array(sha1Hex.utf8))
    }

    /// A browser session after the app's sign-in: 16 random bytes and an HMAC of them under the
    /// secret. Nothing is stored; changing the secret signs every browser out.
    func newSession() -> String {
        let nonce = Digests.hex(Digests.randomBytes(16))
        return nonce + "." + sessionMAC(nonce)
    }

    func isSession(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32 else { return false }
        return constantTimeEqual(Array(parts[1].utf8), Array(sessionMAC(String(parts[0])).utf8))
    }

    private func sessionMAC(_ nonce: String) -> String {
        Digests.hex(Digests.hmacSHA256(key: key, "healthpipe-session\u{0}\(nonce)"))
    }

    /// A token for a named client: `name-` and 16 hex digits of an HMAC over role and name. A token
    /// for one person (`--subject`) carries them after the name, base64url-encoded (any name stays
    /// URL-safe): `name.UGVyc29u-` and an HMAC over role, name and person — so the person cannot be
    /// changed without the secret, and tokens made before stay valid.
    public func token(name: String, role: AccessRole, person: String? = nil) throws -> String {
        guard !name.isEmpty, name.utf8.allSatisfy({ Self.nameBytes.contains($0) }) else {
            throw ServeError.configuration("a token's name is letters, digits and _ (got '\(name)')")
        }
        guard let person else { return name + "-" + digest(name: name, role: role, person: nil) }
        guard !person.isEmpty else { throw ServeError.configuration("a token's person (--subject) cannot be empty") }
        return name + "." + NightscoutJWT.base64URL(Array(person.utf8)) + "-" + digest(name: name, role: role, person: person)
    }

    /// What a token grants, or nil for an unknown or forged one.
    func grant(ofToken token: String) -> TokenGrant? {
        guard let dash = token.lastIndex(of: "-") else { return nil }
        let label = token[..<dash], mac = Array(token[token.index(after: dash)...].utf8)
        var name = String(label), person: String?
        if let dot = label.firstIndex(of: ".") {
            guard let bytes = NightscoutJWT.decode(label[label.index(after: dot)...]), !bytes.isEmpty,
                  let text = String(bytes: bytes, encoding: .utf8) else { return nil }
            (name, person) = (String(label[..<dot]), text)
        }
        for role in [AccessRole.write, .read] where constantTimeEqual(mac, Array(digest(name: name, role: role, person: person).utf8)) {
            return TokenGrant(name: name, role: role, person: person)
        }
        return nil
    }

    /// A key for one purpose (the API v3 JWTs), derived from the secret: rotating it revokes what it signed.
    func derivedKey(_ purpose: String) -> [UInt8] {
        Digests.hmacSHA256(key: key, "healthpipe-\(purpose)")
    }

    /// A person's token signs `\0person` after the name (a name holds no `\0`, so no token of one
    /// kind is ever the other's).
    private func digest(name: String, role: AccessRole, person: String?) -> String {
        let mac = Digests.hmacSHA256(key: key, "healthpipe-token\u{0}\(role.rawValue)\u{0}\(name)" + (person.map { "\u{0}" + $0 } ?? ""))
        return Digests.hex(Array(mac.prefix(8)))
    }

    private static let nameBytes = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".utf8))
}

/// Compares without stopping at the first difference, so timing tells nothing about the secret.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var diff: UInt8 = 0
    for i in a.indices { diff |= a[i] ^ b[i] }
    return diff == 0
}
