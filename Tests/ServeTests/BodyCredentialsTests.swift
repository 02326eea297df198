import Foundation
import Testing

/// A JSON body's `secret`/`token` (docs/serve.md, "Security model") are read only where they can
/// grant something — a write to the API of a server with a secret — and after a byte-order mark as
/// the upload reads the body; there they are taken out of the document before it is stored.
@Suite struct BodyCredentialsTests {
    typealias S = NightscoutSupport

    @Test func aBodyAfterAByteOrderMarkGivesItsSecretAndNeverStoresIt() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let note = #"{"eventType":"Note","notes":"hello","created_at":"2024-03-01T08:00:00Z","secret":"\#(S.hash)"}"#
        let sent = try S.send(server, "/api/v1/treatments", Data([0xEF, 0xBB, 0xBF] + Array(note.utf8)), headers: ["Content-Type": "application/json"])
        #expect(sent.status == 200, "\(sent.text)")
        let served = try HTTPExchange.send(server.base + "/api/v1/treatments.json?find[created_at][$gte]=2024-01-01T00:00:00Z",
                                           headers: ["api-secret": S.hash])
        #expect(served.text.contains("hello") && !served.text.contains(S.hash), "\(served.text)")
        #expect(try S.sqlite(db, "SELECT count(*) FROM events WHERE metadata LIKE '%\(S.hash)%'") == "0\n")
    }

    /// Credentials in the header too: the body's `secret` is still a credential, never stored.
    @Test func aSecretInTheBodyBesideTheHeaderIsNotStored() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let note = #"{"eventType":"Note","notes":"hello","created_at":"2024-03-01T08:00:00Z","secret":"\#(S.hash)"}"#
        #expect(try S.send(server, "/api/v1/treatments", Data(note.utf8)).status == 200)
        let served = try HTTPExchange.send(server.base + "/api/v1/treatments.json?find[created_at][$gte]=2024-01-01T00:00:00Z",
                                           headers: ["api-secret": S.hash])
        #expect(served.text.contains("hello") && !served.text.contains(S.hash), "\(served.text)")
    }

    /// Without a secret nothing can be granted: the body is left to the route unread, so a document
    /// that happens to carry a `token` is refused as any upload to such a server is, not as a credential.
    @Test func withoutASecretTheBodyIsNotReadForCredentials() throws {
        let server = try ServeProcess(["--db", S.database()])
        defer { _ = server.stop() }
        let note = #"{"eventType":"Note","notes":"hello","created_at":"2024-03-01T08:00:00Z","token":"abc"}"#
        let sent = try S.send(server, "/api/v1/treatments", Data(note.utf8), headers: ["Content-Type": "application/json"])
        #expect(sent.status == 401)
        #expect(sent.text.contains("to accept uploads") && !sent.text.contains("credentials"), "\(sent.text)")
    }
}
