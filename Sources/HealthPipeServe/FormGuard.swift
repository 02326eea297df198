import Foundation
import HTTPTypes
import Hummingbird

/// CSRF protection for the app's forms and its script's writes: a random cookie (`hp_form`,
/// HttpOnly, SameSite=Strict) and, in each form or `X-Form-Token` header, an HMAC of it under a key
/// that lives only in this process. A page on another site can neither read the cookie nor compute
/// the token; a request whose Origin is another site is refused before that.
public struct FormGuard: Sendable {
    static let cookieName = "hp_form"
    static let fieldName = "form_token"
    static let headerName = HTTPField.Name("X-Form-Token")!
    /// A new key each start: a page from before a restart asks to be reloaded.
    private let key: [UInt8]

    public init() { key = Digests.randomBytes(32) }

    /// The token for a request's cookie, and a new cookie when it had none (set it on the response).
    public func token(for request: Request) -> (token: String, newCookie: Cookie?) {
        if let cookie = request.cookies[Self.cookieName]?.value, Self.isWellFormed(cookie) {
            return (mac(cookie), nil)
        }
        let value = Digests.hex(Digests.randomBytes(16))
        return (mac(value), Cookie(name: Self.cookieName, value: value, path: "/", secure: false, httpOnly: true, sameSite: .strict))
    }

    /// Throws 403 unless the request carries the token of its own cookie and comes from this origin.
    func check(_ request: Request) throws {
        if let origin = request.headers[.origin], origin != "null" {
            let host = request.head.authority ?? ""
            guard origin == "http://" + host || origin == "https://" + host else {
                throw HTTPError(.forbidden, message: "a form from another site (Origin \(origin)) cannot write here")
            }
        }
        guard let cookie = request.cookies[Self.cookieName]?.value, Self.isWellFormed(cookie) else {
            throw HTTPError(.forbidden, message: "missing form token: reload the page and try again")
        }
        let sent = request.headers[Self.headerName] ?? Self.formField(request)
        guard let sent, constantTimeEqual(Array(sent.utf8), Array(mac(cookie).utf8)) else {
            throw HTTPError(.forbidden, message: "invalid form token: reload the page and try again")
        }
    }

    private func mac(_ cookie: String) -> String {
        Digests.hex(Digests.hmacSHA256(key: key, cookie))
    }

    /// The form field rides in the query for forms posted as `application/x-www-form-urlencoded`
    /// whose body the route reads; the guard reads it from the URL (`action="/x?form_token=…"`) so
    /// it never consumes a body it does not own.
    private static func formField(_ request: Request) -> String? {
        request.uri.queryParameters[Substring(fieldName)].map(String.init)
    }

    private static func isWellFormed(_ cookie: String) -> Bool {
        cookie.utf8.count == 32 && cookie.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
