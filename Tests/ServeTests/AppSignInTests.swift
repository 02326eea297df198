import Foundation
import Testing

/// With an API secret, the app asks for it once (`/signin`) and then knows the browser by an
/// HttpOnly, SameSite=Strict session cookie; a wrong secret, a forged cookie or a sign-in from
/// another site gets nothing. Raw HTTP: every redirect and cookie is seen as the browser sees it.
@Suite struct AppSignInTests {
    static let secret = "a passphrase of some length"

    func get(_ port: Int, _ path: String, cookie: String = "") throws -> String {
        try RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookie.isEmpty ? "" : "Cookie: \(cookie)\r\n")Connection: close\r\n\r\n")
    }

    func post(_ port: Int, _ path: String, body: String, cookie: String, origin: String? = nil) throws -> String {
        try RawHTTP.exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                             + (origin.map { "Origin: \($0)\r\n" } ?? "")
                             + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    func header(_ response: String, _ name: String) -> String? {
        response.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func theSecretOnceThenASession() throws {
        let db = try AppDatabase.threeYears()
        let server = try ServeProcess(["--db", db.path], environment: ["API_SECRET": Self.secret])
        defer { _ = server.stop() }
        let port = server.port
        // A page without credentials goes to the sign-in form; the API says 401.
        let first = try get(port, "/")
        #expect(first.hasPrefix("HTTP/1.1 303"), "\(first.prefix(200))")
        #expect(header(first, "Location") == "/signin")
        #expect(try get(port, "/api/app/version").hasPrefix("HTTP/1.1 401"))

        let form = try get(port, "/signin")
        #expect(form.hasPrefix("HTTP/1.1 200"))
        let formCookie = try #require(header(form, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let tokenRange = try #require(form.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))
        let token = String(form[tokenRange])
        #expect(try #require(header(form, "Content-Security-Policy")).contains("script-src 'nonce-"))

        // No token, another site, a wrong secret: no session.
        #expect(try post(port, "/signin", body: "secret=x", cookie: formCookie).hasPrefix("HTTP/1.1 403"))
        #expect(try post(port, "/signin?" + token, body: "secret=" + Self.secret.replacingOccurrences(of: " ", with: "+"), cookie: formCookie,
                         origin: "http://evil.example").hasPrefix("HTTP/1.1 403"))
        let wrong = try post(port, "/signin?" + token, body: "secret=not+it+at+all+really", cookie: formCookie)
        #expect(header(wrong, "Location")?.hasPrefix("/signin?err=") == true && header(wrong, "Set-Cookie") == nil)

        let right = try post(port, "/signin?" + token, body: "secret=" + Self.secret.replacingOccurrences(of: " ", with: "+"), cookie: formCookie)
        #expect(header(right, "Location") == "/")
        let set = try #require(header(right, "Set-Cookie"))
        #expect(set.hasPrefix("hp_session=") && set.contains("HttpOnly") && set.contains("SameSite=Strict"))
        let session = String(set.split(separator: ";")[0])
        let day = try get(port, "/", cookie: session)
        #expect(day.hasPrefix("HTTP/1.1 200") && day.contains("<article class=\"dayview current\""))
        #expect(try get(port, "/api/app/version", cookie: session).contains("\"version\""))

        // A forged session is no session; the session never writes through the API.
        let forged = "hp_session=" + String(repeating: "a", count: 32) + "." + String(repeating: "b", count: 64)
        #expect(header(try get(port, "/", cookie: forged), "Location") == "/signin")
        let upload = try post(port, "/api/v1/entries", body: "[]", cookie: session)
        #expect(upload.hasPrefix("HTTP/1.1 401") || upload.hasPrefix("HTTP/1.1 404"), "\(upload.prefix(120))")
    }

    /// A signed-out visitor opening a day is sent to sign in and then back to that day (issue 38
    /// item 7); only this app's own paths are returned to, never another site (an open redirect).
    @Test func signingInReturnsToThePageAskedFor() throws {
        let db = try AppDatabase.threeYears()
        let server = try ServeProcess(["--db", db.path], environment: ["API_SECRET": Self.secret])
        defer { _ = server.stop() }
        let port = server.port
        let asked = try get(port, "/day/2024-03-05?person=default")
        #expect(header(asked, "Location") == "/signin?next=%2Fday%2F2024-03-05%3Fperson%3Ddefault", "\(asked.prefix(300))")
        let form = try get(port, try #require(header(asked, "Location")))
        #expect(form.contains(#"<input type="hidden" name="next" value="/day/2024-03-05?person=default">"#), "\(form)")
        let formCookie = try #require(header(form, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let token = String(form[try #require(form.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let typed = "secret=" + Self.secret.replacingOccurrences(of: " ", with: "+")
        // A wrong secret keeps the page to return to; the right one goes there.
        let wrong = try post(port, "/signin?" + token, body: "secret=not+it+at+all+really&next=%2Fday%2F2024-03-05", cookie: formCookie)
        #expect(header(wrong, "Location")?.hasPrefix("/signin?next=%2Fday%2F2024-03-05&err=") == true, "\(wrong.prefix(300))")
        let right = try post(port, "/signin?" + token, body: typed + "&next=%2Fday%2F2024-03-05%3Fperson%3Ddefault", cookie: formCookie)
        #expect(header(right, "Location") == "/day/2024-03-05?person=default", "\(right.prefix(300))")
        // Another site is never a place to return to: the app's home instead.
        for hostile in ["%2F%2Fevil.example%2Fx", "https%3A%2F%2Fevil.example", "%2F%5Cevil.example", "%2F%09%2Fevil.example", "javascript%3Aalert(1)", "evil.example"] {
            let answer = try post(port, "/signin?" + token, body: typed + "&next=" + hostile, cookie: formCookie)
            #expect(header(answer, "Location") == "/", "\(hostile): \(answer.prefix(300))")
            let page = try get(port, "/signin?next=" + hostile)
            #expect(!page.contains("name=\"next\""), "\(hostile)")
        }
    }

    @Test func aFormWritesThroughTheCommandAndComesBack() throws {
        let db = try AppDatabase.threeYears()
        let server = try ServeProcess(["--db", db.path])
        defer { _ = server.stop() }
        let page = try get(server.port, "/day/" + AppDatabase.isoDay(AppDatabase.lastDay))
        let cookie = try #require(header(page, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let token = String(page[try #require(page.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let day = AppDatabase.isoDay(AppDatabase.lastDay)
        let added = try post(server.port, "/app/insulin?" + token, body: "units=3.5&at=\(day)T07%3A05&back=%2Fday%2F\(day)&note=%3Cscript%3E", cookie: cookie)
        #expect(added.hasPrefix("HTTP/1.1 303"), "\(added.prefix(300))")
        #expect(header(added, "Location")?.hasPrefix("/day/\(day)?msg=insulin") == true)
        let after = try get(server.port, "/day/\(day)", cookie: cookie)
        #expect(after.contains("insulin 3.5 U bolus  — &lt;script&gt;"))
        // A refusal comes back with the command's reason; `back` never leaves the app.
        let refused = try post(server.port, "/app/insulin?" + token, body: "units=abc&back=%2F%2Fevil.example", cookie: cookie)
        #expect(header(refused, "Location")?.hasPrefix("/?err=") == true, "\(refused.prefix(300))")
    }
}
