import Foundation
import Testing

/// Every response carries the promised security headers and, for an error, a JSON reason — the
/// router's 404 and the HTTP layer's own 400s included; `HEAD` of every GET route answers as GET
/// does, without a body.
@Suite struct ResponseHeadersTests {
    static let getRoutes = ["/api/v1/status.json", "/api/v1/status", "/api/v1/entries.json", "/api/v1/entries/sgv.json", "/api/v1/entries/current.json",
                            "/api/v1/treatments.json", "/api/v1/devicestatus.json", "/api/v1/profile.json", "/api/v1/profile/current",
                            "/api/v1/verifyauth", "/api/v3/version", "/api/v3/status", "/api/v3/lastModified", "/api/v3/entries",
                            "/api/v3/treatments/history/0", "/pebble", "/api/v2/properties", "/api/v2/properties/bgnow,delta",
                            "/api/v1/entries.csv", "/api/v1/entries.txt", "/api/v1/count/entries/where", "/", "/agp", "/days", "/reports", "/settings", "/signin", "/api/app/version"]

    static func header(_ reply: String, _ name: String) -> String? {
        reply.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    static func body(_ reply: String) -> String {
        reply.range(of: "\r\n\r\n").map { String(reply[$0.upperBound...]) } ?? ""
    }

    /// The headers docs/serve.md promises, and a JSON reason.
    static func expectPromised(_ reply: String, status: String, _ what: String) {
        #expect(reply.hasPrefix("HTTP/1.1 " + status), "\(what): \(reply.prefix(200))")
        #expect(header(reply, "Content-Security-Policy")?.contains("default-src 'none'") == true, "\(what): \(reply.prefix(300))")
        #expect(header(reply, "X-Content-Type-Options") == "nosniff", "\(what)")
        #expect(header(reply, "X-Frame-Options") == "DENY", "\(what)")
        let reason = (try? JSONSerialization.jsonObject(with: Data(body(reply).utf8))) as? [String: Any]
        #expect(((reason?["error"] as? [String: Any])?["message"] as? String)?.isEmpty == false, "\(what): body \(body(reply).prefix(200))")
    }

    @Test func errorsOfEveryLayerCarryTheHeadersAndAReason() throws {
        let server = try ServeProcess(["--db", NightscoutSupport.database()])
        defer { _ = server.stop() }
        let port = server.port
        let notFound = try RawHTTP.exchange(port: port, "GET /no/such/route HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        Self.expectPromised(notFound, status: "404", "unknown route")
        let garbage = try RawHTTP.exchange(port: port, "NOT HTTP AT ALL\r\n\r\n")
        Self.expectPromised(garbage, status: "400", "unparseable request")
        let header = try RawHTTP.exchange(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n")
        Self.expectPromised(header, status: "400", "malformed header line")
        #expect(try HTTPExchange.send(server.base + "/api/v1/status.json").status == 200, "the server goes on")
    }

    /// A malformed chunk in an upload's body is the client's 400, never our 500.
    @Test func aMalformedChunkInAnUploadIsA400() throws {
        let db = NightscoutSupport.database()
        let server = try NightscoutSupport.server(db)
        defer { _ = server.stop() }
        let reply = try RawHTTP.exchange(port: server.port, "POST /api/v1/entries HTTP/1.1\r\nHost: 127.0.0.1\r\napi-secret: \(NightscoutSupport.hash)\r\n"
                                         + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n[]\r\n0\r\n\r\n")
        Self.expectPromised(reply, status: "400", "malformed chunk size")
    }

    @Test func headOfEveryGetRouteAnswersLikeGetWithoutABody() throws {
        let server = try ServeProcess(["--db", NightscoutSupport.database()])
        defer { _ = server.stop() }
        for path in Self.getRoutes {
            let get = try RawHTTP.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let head = try RawHTTP.exchange(port: server.port, "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(head.prefix(12) == get.prefix(12), "HEAD \(path): \(head.prefix(80)) — GET: \(get.prefix(80))")
            #expect(Self.body(head).isEmpty, "HEAD \(path) has a body")
            #expect(Self.header(head, "Content-Security-Policy") != nil, "HEAD \(path)")
        }
    }
}
