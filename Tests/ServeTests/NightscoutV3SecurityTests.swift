import Foundation
@testable import HealthPipeServe
import Testing

/// API v3's credentials: a JWT only from a token of ours, and only while it lives and as it was
/// signed; a read-only token's JWT reads and never writes.
@Suite struct NightscoutV3SecurityTests {
    typealias S = NightscoutSupport

    @Test func jwtsAreCheckedAndCarryTheirTokensRole() throws {
        let db = S.database()
        let server = try S.server(db)
        var aaps = AAPSClient(server: server)
        let body = try AAPSClient.fixture("aaps-v3-entry.json")
        #expect(try aaps.send("/api/v3/entries", method: "POST", body: body).status == 401, "no JWT")
        #expect(try aaps.authorize("aaps-0123456789abcdef").status == 401, "a token we did not make")
        #expect(try aaps.authorize(AAPSClient.accessToken()).status == 200)
        let good = aaps.jwt
        let parts = good.split(separator: ".").map(String.init)
        // Forged: the payload changed (a read token's JWT made a writer's), the signature another's, none at all.
        let payload = String(decoding: Data(base64Encoded: parts[1] + String(repeating: "=", count: (4 - parts[1].count % 4) % 4))!, as: UTF8.self)
        let raised = NightscoutJWT.base64URL(Array(payload.replacingOccurrences(of: "aaps", with: "root").utf8))
        let secret = try APISecret(S.secret), other = try APISecret("another secret of 12+ chars")
        let now = Int64(Date().timeIntervalSince1970)
        let none = NightscoutJWT.base64URL(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + parts[1] + "."
        for forged in [parts[0] + "." + raised + "." + parts[2], NightscoutJWT(secret: other).sign(subject: "aaps", role: .write, now: now).token,
                       none, NightscoutJWT(secret: secret).sign(subject: "aaps", role: .write, now: now - 3601).token] {
            aaps.jwt = forged
            #expect(try aaps.send("/api/v3/status").status == 401, "\(forged)")
            #expect(try aaps.send("/api/v3/entries", method: "POST", body: body).status == 401)
        }
        #expect(!FileManager.default.fileExists(atPath: db), "nothing stored: no database yet")

        // A read-only token's JWT: reads, "r" permissions, and no upload.
        #expect(try aaps.authorize(AAPSClient.accessToken("follower", role: .read)).status == 200)
        let status = try #require(try aaps.result("/api/v3/status") as? [String: Any])
        #expect((status["apiPermissions"] as? [String: String])?["entries"] == "r")
        #expect(try aaps.send("/api/v3/entries", method: "POST", body: body).status == 401)
        #expect(try aaps.send("/api/v3/entries").status == 200)
        aaps.jwt = good
        #expect(try aaps.send("/api/v3/entries", method: "POST", body: body).status == 201)
        #expect(server.stop() == 0)
    }
}
