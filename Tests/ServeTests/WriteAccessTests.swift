import Foundation
@testable import HealthPipeServe
import Testing

/// Who may write (docs/serve.md, "Security model"): the route the router matches is the route the
/// access rule judges, whatever the path's spelling; a read-only token and an `--open-reads`
/// visitor never write — through API v1, API v3 or the app's forms — even holding a valid form
/// token; a loopback server answers only its own Host names. Raw HTTP: paths are sent as written.
@Suite struct WriteAccessTests {
    typealias S = NightscoutSupport

    static let treatment = #"[{"eventType":"Correction Bolus","insulin":25,"created_at":"2024-03-01T08:00:00Z"}]"#

    /// The spellings of `/api/v1/treatments` a client might send, each judged as the route it reaches.
    static let spellings = ["//api/v1/treatments", "///api//v1///treatments", "/api/v1/treatments/", "//api/v1/treatments.json/",
                            "/./api/v1/treatments", "/api/./v1/treatments", "/api%2Fv1/treatments", "/%2Fapi/v1/treatments",
                            "/API/v1/treatments", "/api/V1/Treatments", "/app/../api/v1/treatments"]

    /// Every write route: API v1 (POST, PUT and DELETE), API v3 (create, update, patch, delete), the app's forms.
    static var writeRoutes: [(method: String, path: String)] {
        var routes: [(String, String)] = []
        for c in ["entries", "entries.json", "treatments", "treatments.json", "devicestatus", "devicestatus.json", "profile", "profile.json"] {
            routes += [("POST", "/api/v1/" + c), ("PUT", "/api/v1/" + c)]
        }
        for c in ["entries", "entries.json", "entries/65e1a0000000000000000000", "entries/sgv", "entries/*",
                  "treatments", "treatments.json", "treatments/65e1a0000000000000000000", "treatments/*"] {
            routes.append(("DELETE", "/api/v1/" + c))
        }
        routes += [("POST", "/api/v1/food"), ("PUT", "/api/v1/food"), ("POST", "/api/v1/food.json"), ("PUT", "/api/v1/food.json"),
                   ("DELETE", "/api/v1/food/65e1a0000000000000000000")]
        for c in NightscoutV3Documents.collections where c != "food" {
            routes += [("POST", "/api/v3/" + c), ("PUT", "/api/v3/\(c)/abc"), ("PATCH", "/api/v3/\(c)/abc"), ("DELETE", "/api/v3/\(c)/abc")]
        }
        for action in AppRoutes.actions { routes.append(("POST", "/app/" + action)) }
        return routes
    }

    /// A browser's form cookie and token, as any visitor gets them from the sign-in page.
    static func formCredentials(_ port: Int) throws -> (cookie: String, token: String) {
        let page = try RawHTTP.exchange(port: port, "GET /signin HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let cookie = try #require(page.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: hp_form=") })
        let token = try #require(page.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))
        return (String(cookie.dropFirst("set-cookie: ".count).split(separator: ";")[0]), String(page[token].dropFirst("form_token=".count)))
    }

    static func send(_ port: Int, _ method: String, _ path: String, body: String, headers: [String: String]) throws -> String {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        return try RawHTTP.exchange(port: port, head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }

    static func status(_ reply: String) -> Int { Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    /// The callers who may read and must not write: a read-only token, and an anonymous visitor under `--open-reads`.
    static func readers() throws -> [(name: String, extra: [String], query: String, headers: [String: String])] {
        let reader = try APISecret(S.secret).token(name: "follower", role: .read)
        return [("read token in the query", [], "token=" + reader, [:]),
                ("read token as bearer", [], "", ["Authorization": "Bearer " + reader]),
                ("open-reads visitor", ["--open-reads"], "", [:])]
    }

    @Test func readersNeverWriteThroughAnyRouteOrSpelling() throws {
        for reader in try Self.readers() {
            let db = S.database()
            let server = try S.server(db, reader.extra)
            defer { _ = server.stop() }
            let form = try Self.formCredentials(server.port)
            var headers = reader.headers
            headers["Cookie"] = form.cookie
            headers["X-Form-Token"] = form.token
            headers["Content-Type"] = "application/json"
            // A write route that exists is refused for want of the right (401/403), not missed (404):
            // a 404 there would hide a route that went away. A spelling may also reach no route at all.
            let routes = Self.writeRoutes.map { ($0.method, $0.path, [401, 403]) }
                + Self.spellings.flatMap { [("POST", $0, [401, 403, 404]), ("PUT", $0, [401, 403, 404])] }
            for (method, path, allowed) in routes {
                let query = reader.query.isEmpty ? "" : (path.contains("?") ? "&" : "?") + reader.query
                let reply = try Self.send(server.port, method, path + query, body: Self.treatment, headers: headers)
                #expect(allowed.contains(Self.status(reply)), "\(reader.name): \(method) \(path) → \(reply.prefix(160))")
            }
            #expect(!FileManager.default.fileExists(atPath: db), "\(reader.name): something was written")
            // …and they still read.
            let read = try Self.send(server.port, "GET", "/api/v1/treatments.json" + (reader.query.isEmpty ? "" : "?" + reader.query), body: "", headers: reader.headers)
            #expect(Self.status(read) == 200, "\(reader.name): \(read.prefix(160))")
        }
    }

    /// A spelling the router reads as the upload is judged as the upload: the secret still writes through it.
    @Test func aSpellingOfAnUploadIsJudgedAsTheUpload() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let reply = try Self.send(server.port, "POST", "//api/v1/treatments/", body: Self.treatment,
                                  headers: ["api-secret": S.hash, "Content-Type": "application/json"])
        #expect(Self.status(reply) == 200, "\(reply.prefix(200))")
        #expect(try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2024-01-01T00:00:00Z").count == 1)
    }

    /// The app's forms write for a browser signed in with the secret (and, without a secret, for this machine's user).
    @Test func aSignedInBrowserWritesThroughTheForms() throws {
        let db = S.database()
        let server = try S.server(db, ["--open-reads"])
        defer { _ = server.stop() }
        #expect(try S.send(server, "/api/v1/entries", Data(#"[{"type":"sgv","sgv":120,"date":1709280000000}]"#.utf8)).status == 200)
        let form = try Self.formCredentials(server.port)
        let signIn = try Self.send(server.port, "POST", "/signin?form_token=" + form.token,
                                   body: "secret=" + S.secret.replacingOccurrences(of: " ", with: "+"),
                                   headers: ["Cookie": form.cookie, "Content-Type": "application/x-www-form-urlencoded"])
        let session = try #require(signIn.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: hp_session=") })
        let cookie = form.cookie + "; " + String(session.dropFirst("set-cookie: ".count).split(separator: ";")[0])
        let added = try Self.send(server.port, "POST", "/app/insulin?form_token=" + form.token, body: "units=2&at=2024-03-01T08%3A00",
                                  headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"])
        #expect(Self.status(added) == 200, "\(added.prefix(300))")
    }

    /// Nightscout's credentials as cgm-remote-monitor accepts them (issue 39): the secret's SHA-1 or
    /// SHA-512 in `api-secret` or `?secret=`, an access token where the secret goes, a JSON body's
    /// `secret`/`token`; a read-only token reads and never writes, however it is sent.
    @Test func nightscoutsCredentialsAreReadWhereNightscoutReadsThem() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha512sum")
        p.standardInput = { let i = Pipe(); i.fileHandleForWriting.write(Data(S.secret.utf8)); i.fileHandleForWriting.closeFile(); return i }()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let sha512 = String(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(128))
        let writer = try APISecret(S.secret).token(name: "uploader", role: .write), reader = try APISecret(S.secret).token(name: "follower", role: .read)
        func entry(_ minute: Int, _ extra: String = "") -> String {
            #"{"type":"sgv","sgv":\#(100 + minute),"date":\#(1_709_280_000_000 + Int64(minute) * 60_000)\#(extra)}"#
        }
        let json = ["Content-Type": "application/json"]
        func post(_ path: String, _ body: String, _ headers: [String: String]) throws -> Int {
            try S.send(server, path, Data(body.utf8), headers: json.merging(headers) { $1 }).status
        }
        #expect(try post("/api/v1/entries", entry(1), ["api-secret": sha512.uppercased()]) == 200, "SHA-512")
        #expect(try post("/api/v1/entries?secret=" + S.hash, entry(2), [:]) == 200, "?secret=")
        #expect(try post("/api/v1/entries", entry(3), ["api-secret": writer]) == 200, "a write token in api-secret")
        #expect(try post("/api/v1/entries", entry(4, #","secret":"\#(S.hash)""#), [:]) == 200, "the body's secret")
        #expect(try post("/api/v1/entries", entry(5, #","token":"\#(writer)""#), [:]) == 200, "the body's token")
        #expect(try post("/api/v1/entries", entry(6), ["api-secret": reader]) == 401, "a read token in api-secret")
        #expect(try post("/api/v1/entries?secret=" + reader, entry(7), [:]) == 401)
        #expect(try post("/api/v1/entries", entry(8, #","token":"\#(reader)""#), [:]) == 401, "a read token in the body")
        #expect(try post("/api/v1/entries", entry(9, #","secret":"not-the-secret""#), [:]) == 401)
        #expect(try HTTPExchange.send(server.base + "/api/v1/entries.json?count=20", headers: ["api-secret": reader]).status == 200)
        #expect(try S.get(server, "/api/v1/entries.json?count=20&find[date][$gte]=1709000000000").count == 5)
        // A credential in the body is never stored, so never served back to a reader.
        let note = #"{"eventType":"Note","notes":"hello","created_at":"2024-03-01T08:00:00Z","secret":"\#(S.hash)"}"#
        #expect(try post("/api/v1/treatments", note, [:]) == 200)
        let served = try HTTPExchange.send(server.base + "/api/v1/treatments.json?find[created_at][$gte]=2024-01-01T00:00:00Z", headers: ["api-secret": reader])
        #expect(served.text.contains("hello") && !served.text.contains(S.hash), "\(served.text)")
    }

    /// DNS rebinding: only the loopback addresses and `localhost` are this machine's names.
    @Test func loopbackHostNamesAreTheLoopbackAddressesOnly() throws {
        for host in ["127.0.0.1", "127.0.0.1:8080", "127.1.2.3:80", "localhost", "LOCALHOST:8080", "[::1]", "[::1]:8080"] {
            #expect(BindPolicy.isLoopbackHostHeader(host), "\(host)")
        }
        for host in ["127.x.attacker.example", "127.x.attacker.example:8080", "127.0.0.1.evil.example", "127.0.0.256", "127.0.0.01",
                     "127.0.0", "127.0.0.1.", "127.a.b.c", "0x7f.0.0.1", "128.0.0.1", "evil.example", "[::2]:80", ""] {
            #expect(!BindPolicy.isLoopbackHostHeader(host), "\(host)")
        }
        let server = try ServeProcess(["--db", S.database()])
        defer { _ = server.stop() }
        let rebound = try RawHTTP.exchange(port: server.port, "GET /api/v1/status.json HTTP/1.1\r\nHost: 127.x.attacker.example:\(server.port)\r\nConnection: close\r\n\r\n")
        #expect(rebound.hasPrefix("HTTP/1.1 421"), "\(rebound.prefix(80))")
    }
}
