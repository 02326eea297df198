import Foundation
import Testing

/// Requests no client should send, against a server holding real uploads: each is answered (never
/// a 5xx, never a dropped server), and the server still answers a good request after all of them.
@Suite struct HostileRequestsTests {
    static let queries = [
        "/api/v1/entries.json?count=-1", "/api/v1/entries.json?count=99999999999999999999999",
        "/api/v1/entries.json?count=abc", "/api/v1/entries.json?find[date][$gte]=not-a-date",
        "/api/v1/entries.json?find[date][$gte]=1e400", "/api/v1/entries.json?find[date][$gte]=-99999999999999999",
        "/api/v1/entries.json?find[sgv][$gte]=NaN", "/api/v1/entries.json?find[[[[[[date]]]]]]=1",
        "/api/v1/entries.json?find[date][$where]=sleep(1000)", "/api/v1/entries.json?find[type]=%00%ff%fe",
        "/api/v1/treatments.json?find[eventType]=/(/", "/api/v1/treatments.json?find[eventType]=/" + String(repeating: "(", count: 5000) + "/",
        "/api/v1/treatments.json?find[created_at][$gte]=2024-13-45T99:99:99Z", "/api/v1/treatments.json?" + String(repeating: "a=1&", count: 5000),
        "/api/v3/entries?limit=-5", "/api/v3/entries?limit=1e9", "/api/v3/entries?sort$desc=" + String(repeating: "x", count: 10000),
        "/api/v3/entries?date$gt=%zz", "/api/v3/treatments/history/-1", "/api/v3/treatments/history/99999999999999999999999",
        "/api/v3/nosuchcollection", "/api/v3/entries/" + String(repeating: "f", count: 5000),
        "/api/v2/authorization/request/" + String(repeating: "a-", count: 3000), "/api/v2/authorization/request/%2e%2e%2f",
        "/day/9999-99-99", "/day/0000-01-01", "/day/2024-02-30", "/day/" + String(repeating: "1", count: 4000),
        "/agp?from=2024-01-01&to=1900-01-01", "/agp?from=0001-01-01&to=9999-12-31", "/days?from=x&to=y",
        "/reports?month=2024-00", "/reports?month=99999-99", "/api/app/version?x=%",
    ]

    @Test func everyHostileRequestIsAnsweredWithoutA5xx() throws {
        let db = NightscoutSupport.database()
        let server = try NightscoutSupport.server(db)
        let upload = try Data(contentsOf: NightscoutSupport.fixtures.appendingPathComponent("real/nightscout/nightscout-loop-entries.json"))
        #expect(try NightscoutSupport.send(server, "/api/v1/entries.json", upload).status == 200)
        for path in Self.queries {
            let reply = try RawHTTP.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\napi-secret: \(NightscoutSupport.hash)\r\nConnection: close\r\n\r\n")
            let status = Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
            #expect((200..<500).contains(status) || reply.isEmpty && path.count > 8000, "\(path.prefix(80)): \(reply.prefix(120))")
        }
        // Bodies: nested too deep, not JSON, truncated, a number where a document belongs.
        for body in [String(repeating: "[", count: 100_000), "{\"sgv\":", "[1,2,3]", "\"text\"", "[{\"sgv\":1e999,\"date\":1}]", "\u{0}\u{1}"] {
            let r = try NightscoutSupport.send(server, "/api/v1/entries.json", Data(body.utf8))
            #expect((200..<500).contains(r.status), "\(body.prefix(40)): \(r.status) \(r.text.prefix(120))")
        }
        #expect(try HTTPExchange.send(server.base + "/api/v1/status.json", headers: ["api-secret": NightscoutSupport.hash]).status == 200)
        #expect(server.stop() == 0)
    }
}
