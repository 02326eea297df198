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

    /// A token for a named client: `name-` and 16 hex digits of an HMAC over role and name.
    public func token(name: String, role: AccessRole) throws -> String {
        guard !name.isEmpty, name.utf8.allSatisfy({ Self.nameBytes.contains($0) }) else {
            throw ServeError.configuration("a token's name is letters, digits and _ (got '\(name)')")
        }
        return name + "-" + digest(name: name, role: role)
    }

    /// The role a token grants, or nil for an unknown or forged one.
    func role(ofToken token: String) -> AccessRole? {
        guard let dash = token.lastIndex(of: "-") else { return nil }
        let name = String(token[..<dash]), mac = Array(token[token.index(after: dash)...].utf8)
        for role in [AccessRole.write, .read] where constantTimeEqual(mac, Array(digest(name: name, role: role).utf8)) {
            return role
        }
        return nil
    }

    /// A key for one purpose (the API v3 JWTs), derived from the secret: rotating it revokes what it signed.
    func derivedKey(_ purpose: String) -> [UInt8] {
        Digests.hmacSHA256(key: key, "healthpipe-\(purpose)")
    }

    private func digest(name: String, role: AccessRole) -> String {
        let mac = Digests.hmacSHA256(key: key, "healthpipe-token\u{0}\(role.rawValue)\u{0}\(name)")
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
