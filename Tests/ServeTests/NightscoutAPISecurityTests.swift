import Foundation
import Testing

/// The API's side of the security model (docs/serve.md): who may upload, and what a bad request gets.
@Suite struct NightscoutAPISecurityTests {
    typealias S = NightscoutSupport
    static let entry = Data(#"[{"type":"sgv","sgv":120,"date":1709280000000}]"#.utf8)

    @Test func uploadsNeedTheSecretOrAWriteToken() throws {
        let db = S.database()
        let server = try S.server(db)
        #expect(try S.send(server, "/api/v1/entries", Self.entry, headers: ["Content-Type": "application/json"]).status == 401)
        #expect(try S.send(server, "/api/v1/treatments", Self.entry, headers: ["Content-Type": "application/json",
                                                                                "api-secret": String(repeating: "1", count: 40)]).status == 401)
        let reader = try token(["follower", "--read-only"])
        let r = try S.send(server, "/api/v1/entries?token=" + reader, Self.entry, headers: ["Content-Type": "application/json"])
        #expect(r.status == 401 || r.status == 403)
        #expect(!FileManager.default.fileExists(atPath: db), "nothing stored, not even a database")
        // The reader reads; a write token writes.
        #expect(try HTTPExchange.send(server.base + "/api/v1/entries.json?token=" + reader).status == 200)
        let writer = try token(["xdrip"])
        #expect(try S.send(server, "/api/v1/entries?token=" + writer, Self.entry, headers: ["Content-Type": "application/json"]).status == 200)
        let auth = try HTTPExchange.send(server.base + "/api/v1/verifyauth?token=" + reader).json as? [String: Any]
        #expect((auth?["message"] as? [String: Any])?["canWrite"] as? Bool == false)
        #expect(server.stop() == 0)
    }

    @Test func badBodiesAreRefusedWithAReason() throws {
        let db = S.database()
        let server = try S.server(db)
        let malformed = try S.send(server, "/api/v1/entries", Data(#"[{"sgv":120,"date":"#.utf8))
        #expect(malformed.status == 400)
        #expect(malformed.text.contains("malformed JSON"))
        let form = try S.send(server, "/api/v1/entries", Self.entry, headers: ["api-secret": S.hash, "Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 415)
        let huge = Data(repeating: UInt8(ascii: " "), count: 5 * 1024 * 1024)
        #expect(try S.send(server, "/api/v1/entries", huge).status == 413)
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(try HTTPExchange.send(server.base + "/api/v1/entries.json?find[date][$gte]=yesterday", headers: ["api-secret": S.hash]).status == 400)
        #expect(server.stop() == 0)
    }

    private func token(_ args: [String]) throws -> String {
        let p = Process(), out = Pipe()
        p.executableURL = ServeProcess.binary
        p.arguments = ["serve", "token"] + args
        p.environment = ["API_SECRET": S.secret]
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
