import Foundation
import Testing

/// The security model of docs/serve.md against a real `healthpipe serve` process: where it listens,
/// who may read and write, what every response says to browsers, how it stops.
@Suite struct ServeSecurityTests {
    static let secret = "correct horse battery staple"
    static let hash = "abf7aad6438836dbe526aa231abde2d0eef74d42"   // SHA-1 of the secret (sha1sum)

    private func database() -> String { ServeProcess.tempDir().appendingPathComponent("h.sqlite").path }

    @Test func loopbackWithoutSecretReadsButRefusesCredentials() throws {
        let server = try ServeProcess(["--db", database()])
        let status = try HTTPExchange.send(server.base + "/api/v1/status.json")
        #expect(status.status == 200)
        let json = try #require(status.json as? [String: Any])
        #expect(json["status"] as? String == "ok")
        #expect(json["authorized"] as? String == "read")
        #expect(status.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(status.headers["x-content-type-options"] == "nosniff")
        // No secret is set: credentials cannot be checked, so they are refused, not ignored.
        let withHash = try HTTPExchange.send(server.base + "/api/v1/status.json", headers: ["api-secret": Self.hash])
        #expect(withHash.status == 401)
        #expect(withHash.text.contains("no API secret"))
        #expect(server.stop() == 0)
        #expect(server.stderr.contains("stopped"))
    }

    @Test func aNonLoopbackBindNeedsASecret() throws {
        let p = Process()
        p.executableURL = ServeProcess.binary
        p.arguments = ["serve", "--db", database(), "--host", "0.0.0.0", "--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["API_SECRET"] = nil
        p.environment = env
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("set an API secret first"))
    }

    @Test func aShortSecretIsRefused() throws {
        let p = Process()
        p.executableURL = ServeProcess.binary
        p.arguments = ["serve", "--db", database(), "--port", "0"]
        p.environment = ["API_SECRET": "short"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
    }

    @Test func withASecretOnlyCredentialsRead() throws {
        let server = try ServeProcess(["--db", database()], environment: ["API_SECRET": Self.secret])
        let url = server.base + "/api/v1/status.json"
        #expect(try HTTPExchange.send(url).status == 401)
        let good = try HTTPExchange.send(url, headers: ["api-secret": Self.hash.uppercased()])
        #expect(good.status == 200)
        #expect((good.json as? [String: Any])?["authorized"] as? String == "write")
        #expect(try HTTPExchange.send(url, headers: ["api-secret": String(repeating: "0", count: 40)]).status == 401)
        #expect(try HTTPExchange.send(url + "?token=xdrip-0123456789abcdef").status == 401)
        #expect(server.stop() == 0)
    }

    @Test func tokensCarryTheirRole() throws {
        func token(_ args: [String]) throws -> String {
            let p = Process(), out = Pipe()
            p.executableURL = ServeProcess.binary
            p.arguments = ["serve", "token"] + args
            p.environment = ["API_SECRET": Self.secret]
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let writer = try token(["xdrip"]), reader = try token(["follower", "--read-only"])
        #expect(writer.hasPrefix("xdrip-") && writer.count == "xdrip-".count + 16)
        let server = try ServeProcess(["--db", database()], environment: ["API_SECRET": Self.secret])
        let url = server.base + "/api/v1/status.json"
        #expect((try HTTPExchange.send(url + "?token=" + writer).json as? [String: Any])?["authorized"] as? String == "write")
        #expect((try HTTPExchange.send(url, headers: ["Authorization": "Bearer " + reader]).json as? [String: Any])?["authorized"] as? String == "read")
        // A token for another name with the same digits is forged.
        let forged = "nightscout-" + writer.split(separator: "-").last!
        #expect(try HTTPExchange.send(url + "?token=" + forged).status == 401)
        #expect(server.stop() == 0)
    }

    @Test func openReadsLetFollowersReadWithoutTheSecret() throws {
        let server = try ServeProcess(["--db", database(), "--open-reads"], environment: ["API_SECRET": Self.secret])
        let r = try HTTPExchange.send(server.base + "/api/v1/status.json")
        #expect(r.status == 200)
        #expect((r.json as? [String: Any])?["authorized"] as? String == "read")
        #expect(server.stop() == 0)
    }

    /// A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) is not answered.
    @Test func aLoopbackServerAnswersOnlyForLocalhost() throws {
        let server = try ServeProcess(["--db", database()])
        let reply = try RawHTTP.exchange(port: server.port, "GET /api/v1/status.json HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nConnection: close\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 421"))
        let local = try RawHTTP.exchange(port: server.port, "GET /api/v1/status.json HTTP/1.1\r\nHost: localhost:\(server.port)\r\nConnection: close\r\n\r\n")
        #expect(local.hasPrefix("HTTP/1.1 200"))
        #expect(server.stop() == 0)
    }

    @Test func unknownPathsAreA404AndNeverAFile() throws {
        let server = try ServeProcess(["--db", database()])
        for path in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/v1/../../../etc/passwd", "/static/..%2f..%2fPackage.swift"] {
            let reply = try RawHTTP.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 404") || reply.hasPrefix("HTTP/1.1 400"), "\(path): \(reply.prefix(40))")
            #expect(!reply.contains("root:"))
        }
        #expect(server.stop() == 0)
    }

    /// A client that starts a request and goes silent loses its connection; the server goes on.
    @Test func aSilentClientIsDisconnected() throws {
        let server = try ServeProcess(["--db", database(), "--idle-timeout", "1"])
        let closed = try RawHTTP.closesAfterPartialRequest(port: server.port, "GET /api/v1/status.json HTTP/1.1\r\nHo", within: 5)
        #expect(closed)
        #expect(try HTTPExchange.send(server.base + "/api/v1/status.json").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func malformedRequestsGetA4xxAndTheServerGoesOn() throws {
        let server = try ServeProcess(["--db", database()])
        let garbage = try RawHTTP.exchange(port: server.port, "NOT HTTP AT ALL\r\n\r\n")
        #expect(garbage.isEmpty || garbage.hasPrefix("HTTP/1.1 400"))
        #expect(try HTTPExchange.send(server.base + "/api/v1/status.json").status == 200)
        #expect(server.stop() == 0)
    }
}
