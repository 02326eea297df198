import Foundation
import Testing

/// A token for one person (issue 38 item 1: a follower who may see one child only):
/// `healthpipe serve token NAME --subject PERSON`. Its holder sees that person on every screen (no
/// switcher, no one else's name), anyone else's address is "no such person" naming no one, the
/// Nightscout API (v1, v3 through its JWT) reads that person whatever `serve --subject` says, and a
/// write token uploads into that person only. The family of `AppPeopleTests` (real exports for two
/// people, a third with one typed meal); the server's own `--subject` is someone else.
@Suite struct PersonTokenTests {
    static let secret = "a passphrase of some length"
    static let follower = "ben&co"

    static func token(_ args: [String]) -> String {
        AppDatabase.run(ServeProcess.binary.path, ["serve", "token"] + args, environment: ["API_SECRET": secret]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func get(_ port: Int, _ path: String, token: String, cookie: String = "") throws -> String {
        try RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                             + (token.isEmpty ? "" : "Authorization: Bearer \(token)\r\n") + (cookie.isEmpty ? "" : "Cookie: \(cookie)\r\n") + "Connection: close\r\n\r\n")
    }

    func post(_ port: Int, _ path: String, token: String, type: String, body: String, cookie: String = "") throws -> String {
        try RawHTTP.exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                             + (cookie.isEmpty ? "" : "Cookie: \(cookie)\r\n")
                             + "Content-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    static func body(_ response: String) -> String {
        response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) } ?? ""
    }

    /// The newest glucose the v1 API answers for this token: its time (ms).
    func newestEntry(_ port: Int, token: String) throws -> Int64? {
        let answer = try get(port, "/api/v1/entries.json?count=1&find%5Bdate%5D%5B%24gte%5D=0", token: token)
        let json = try JSONSerialization.jsonObject(with: Data(Self.body(answer).utf8)) as? [[String: Any]]
        return (json?.first?["date"] as? NSNumber)?.int64Value
    }

    /// The newest glucose (a sensor's or a meter's) the store holds for a person (seconds).
    static func newestStored(_ db: URL, _ person: String) -> Int64? {
        Int64(PersonZoneAppTests.sqlite(db, "SELECT max(start) FROM measurements WHERE metric IN ('glucose', 'blood_glucose') AND subject = '\(person.replacingOccurrences(of: "'", with: "''"))'"))
    }

    @Test func aPersonsTokenSeesOnlyThemOnEveryScreenAndThroughTheAPI() throws {
        let db = try AppPeopleTests.database()
        let server = try ServeProcess(["--db", db.path, "--subject", "anna lee"], environment: AppPeopleTests.utc.merging(["API_SECRET": Self.secret]) { $1 })
        defer { _ = server.stop() }
        let port = server.port
        let reader = Self.token(["grandma", "--read-only", "--subject", Self.follower])
        let everyone = Self.token(["grandpa", "--read-only"])
        #expect(reader.hasPrefix("grandma.") && everyone.hasPrefix("grandpa-"), "\(reader) \(everyone)")

        for screen in AppPeopleTests.screens {
            let page = try get(port, screen, token: reader)
            #expect(page.hasPrefix("HTTP/1.1 200"), "\(screen): \(page.prefix(300))")
            #expect(AppPeopleTests.shown(page) == Self.follower, "\(screen)")
            #expect(!page.contains("person-picker") && !page.contains("anna lee") && !page.contains("carl"), "\(screen) shows someone else")
            // Asking for someone else by the address: not found, and no one else is named or linked.
            for other in ["anna lee", "carl", "nobody"] {
                let refused = try get(port, screen + "?person=" + AppPeopleTests.encoded(other), token: reader)
                #expect(refused.hasPrefix("HTTP/1.1 404"), "\(screen) for \(other): \(refused.prefix(200))")
                let named = AppPeopleTests.people.filter { $0 != other && refused.contains(AppPeopleTests.html($0)) }
                #expect(named.isEmpty && !refused.contains("person-picker"), "\(screen) for \(other) names \(named)")
            }
        }
        // In a browser: the token typed into the sign-in form, then every link of the app as that person only.
        let form = try get(port, "/signin?next=%2Fdays", token: "")
        let formCookie = try #require(AppPeopleTests.header(form, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let formToken = String(form[try #require(form.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let signedIn = try RawHTTP.exchange(port: port, "POST /signin?\(formToken) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(formCookie)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(("secret=" + reader + "&next=%2Fdays").utf8.count)\r\nConnection: close\r\n\r\nsecret=\(reader)&next=%2Fdays")
        #expect(AppPeopleTests.header(signedIn, "Location") == "/days", "\(signedIn.prefix(300))")
        let cookie = try #require(AppPeopleTests.header(signedIn, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let days = try get(port, "/days", token: "", cookie: cookie)
        #expect(days.hasPrefix("HTTP/1.1 200") && AppPeopleTests.shown(days) == Self.follower && !days.contains("person-picker"), "\(days.prefix(300))")
        #expect(try get(port, "/days?person=carl", token: "", cookie: cookie).hasPrefix("HTTP/1.1 404"))

        // The same screens for a token without a person: everyone, as before.
        #expect(AppPeopleTests.switcher(try get(port, "/days", token: everyone)).people == AppPeopleTests.people)

        // The API: the person's readings (v1, and v3 through the JWT its token is traded for), not `--subject`'s.
        let ben = try #require(Self.newestStored(db, Self.follower)), anna = try #require(Self.newestStored(db, "anna lee"))
        #expect(ben != anna)
        #expect(try newestEntry(port, token: reader) == ben * 1000)
        #expect(try newestEntry(port, token: everyone) == anna * 1000)
        let exchange = try get(port, "/api/v2/authorization/request/" + reader, token: "")
        let jwt = try #require((try JSONSerialization.jsonObject(with: Data(Self.body(exchange).utf8)) as? [String: Any])?["token"] as? String)
        let v3 = try get(port, "/api/v3/entries?limit=1&sort$desc=date", token: jwt)
        let v3Date = ((try JSONSerialization.jsonObject(with: Data(Self.body(v3).utf8)) as? [String: Any])?["result"] as? [[String: Any]])?.first?["date"] as? NSNumber
        #expect(v3Date?.int64Value == ben * 1000, "\(v3.prefix(400))")

        // The person cannot be changed without the secret: another person's name in the token is no token.
        let forged = "grandma." + Data("carl".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + reader[reader.lastIndex(of: "-")!...]
        #expect(try get(port, "/days", token: forged).hasPrefix("HTTP/1.1 401"))
        #expect(try get(port, "/api/v1/entries.json", token: forged).hasPrefix("HTTP/1.1 401"))
    }

    @Test func aPersonsWriteTokenWritesIntoThemOnly() throws {
        let db = try AppPeopleTests.database()
        let server = try ServeProcess(["--db", db.path, "--subject", "anna lee"], environment: AppPeopleTests.utc.merging(["API_SECRET": Self.secret]) { $1 })
        defer { _ = server.stop() }
        let port = server.port
        let writer = Self.token(["pump", "--subject", Self.follower])
        // An upload (v1) lands in the token's person, not in `--subject`'s.
        let at: Int64 = 1_260_795_737  // 2009-12-14 13:02:17 UTC: no reading of the fixtures at that second
        let upload = try post(port, "/api/v1/entries", token: writer, type: "application/json",
                              body: #"[{"type":"sgv","sgv":123,"date":\#(at * 1000),"device":"test"}]"#)
        #expect(upload.hasPrefix("HTTP/1.1 200"), "\(upload.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT subject FROM measurements WHERE start = \(at)") == Self.follower)
        // A treatment through API v3 too.
        let exchange = try get(port, "/api/v2/authorization/request/" + writer, token: "")
        let jwt = try #require((try JSONSerialization.jsonObject(with: Data(Self.body(exchange).utf8)) as? [String: Any])?["token"] as? String)
        let v3 = try post(port, "/api/v3/treatments", token: jwt, type: "application/json",
                          body: #"{"eventType":"Carb Correction","carbs":17,"date":\#((at + 60) * 1000),"app":"test"}"#)
        #expect(v3.hasPrefix("HTTP/1.1 201") || v3.hasPrefix("HTTP/1.1 200"), "\(v3.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT subject FROM events WHERE carbs_g = 17") == Self.follower)

        // The app's forms: on the person's screen they write to them; another person's address stores nothing.
        let page = try get(port, "/day/2009-12-14", token: writer)
        let cookie = try #require(AppPeopleTests.header(page, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let formToken = String(page[try #require(page.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let mine = try post(port, "/app/meal?" + formToken, token: writer, type: "application/x-www-form-urlencoded",
                            body: "carbs=33&at=2009-12-14T12%3A00&back=%2F", cookie: cookie)
        #expect(mine.hasPrefix("HTTP/1.1 303"), "\(mine.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT subject FROM events WHERE carbs_g = 33") == Self.follower)
        let theirs = try post(port, "/app/meal?person=carl&" + formToken, token: writer, type: "application/x-www-form-urlencoded",
                              body: "carbs=44&at=2009-12-14T12%3A00&back=%2F", cookie: cookie)
        #expect(theirs.hasPrefix("HTTP/1.1 404"), "\(theirs.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT count(*) FROM events WHERE carbs_g = 44") == "0")

        // Every other write route is the person's too (the settings' subject is the caller's person,
        // also on the store's threads): a deletion of every reading removes only theirs, a food is theirs.
        let annas = "SELECT count(*) FROM measurements WHERE subject = 'anna lee' AND metric = 'glucose'"
        let before = PersonZoneAppTests.sqlite(db, annas)
        let deleted = try RawHTTP.exchange(port: port, "DELETE /api/v1/entries/sgv?find%5Bdate%5D%5B%24gte%5D=0 HTTP/1.1\r\n"
                                           + "Host: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(writer)\r\nConnection: close\r\n\r\n")
        #expect(deleted.hasPrefix("HTTP/1.1 200"), "\(deleted.prefix(300))")
        #expect(before != "0" && PersonZoneAppTests.sqlite(db, annas) == before, "the token deleted --subject's readings")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT count(*) FROM measurements WHERE start = \(at)") == "0", "its own upload is deleted")
        let food = try post(port, "/api/v1/food", token: writer, type: "application/json", body: #"{"type":"food","name":"apple","carbs":12}"#)
        #expect(food.hasPrefix("HTTP/1.1 200"), "\(food.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT subject FROM foods") == Self.follower)
    }
}
