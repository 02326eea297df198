import Foundation
import Testing

/// A database of several people (issue 38 item 1): every screen names whose it is, lists everyone in
/// its switcher and keeps the person in every link and form; a form posted on someone's screen writes
/// to them; `serve --subject` is the person an address without one shows; someone the database does
/// not hold is a 404 in plain words. Real exports (Tests/Fixtures/real) imported for two people, and a
/// third who has only typed a meal; names with a space and an `&` test the address's encoding.
@Suite struct AppPeopleTests {
    static let people = ["anna lee", "ben&co", "carl"]
    static let screens = ["/", "/day/2009-12-14", "/agp", "/days", "/reports", "/settings"]
    static let utc = ["TZ": "UTC"]

    static func database() throws -> URL {
        let db = ServeProcess.tempDir().appendingPathComponent("family.sqlite")
        let real = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real")
        for (file, person, zone) in [("clarity/clarity-en-g7-mgdl.csv", "anna lee", "Europe/Berlin"),
                                     ("carelink/carelink-en-paradigm522-v101.csv", "ben&co", "America/Los_Angeles")] {
            let r = AppDatabase.run(ServeProcess.binary.path, ["import", real.appendingPathComponent(file).path, "--db", db.path,
                                                              "--subject", person, "--timezone", zone, "--quiet"], environment: utc)
            guard r.code == 0 else { throw ServeTestError("import failed: \(r.output)") }
        }
        let meal = AppDatabase.run(ServeProcess.binary.path, ["add", "meal", "--carbs", "20", "--at", "2024-01-01 12:00", "--subject", "carl",
                                                          "--db", db.path], environment: utc)
        guard meal.code == 0 else { throw ServeTestError("add meal failed: \(meal.output)") }
        return db
    }

    static func encoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
    }

    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
    }

    static func unescaped(_ attribute: String) -> String {
        attribute.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
    }

    func get(_ port: Int, _ path: String, cookie: String = "") throws -> String {
        try RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookie.isEmpty ? "" : "Cookie: \(cookie)\r\n")Connection: close\r\n\r\n")
    }

    func post(_ port: Int, _ path: String, body: String, cookie: String) throws -> String {
        try RawHTTP.exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                             + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    static func header(_ response: String, _ name: String) -> String? {
        response.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let re = try! NSRegularExpression(pattern: pattern)
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    /// The app's own addresses a page links to or posts to (not the page's fragments, nor the API);
    /// a GET form sends the person as a field instead.
    static func appAddresses(_ page: String) -> [String] {
        (matches(#"href="(/[^"]*)""#, in: page) + matches(#"<form method="post"[^>]*action="(/[^"]*)""#, in: page))
            .map { unescaped($0[1]) }.filter { !$0.hasPrefix("/api/") }
    }

    /// The person shown: the header's title.
    static func shown(_ page: String) -> String? { matches(#"<h1>([^<]*)</h1>"#, in: page).first.map { unescaped($0[1]) } }

    /// The switcher's people, and the one selected.
    static func switcher(_ page: String) -> (people: [String], selected: String?) {
        let options = matches(#"<option value="([^"]*)"( selected)?>"#, in: matches(#"<select id="person-picker"[\s\S]*?</select>"#, in: page).first?[0] ?? "")
        return (options.map { unescaped($0[1]) }, options.first { !$0[2].isEmpty }.map { unescaped($0[1]) })
    }

    @Test func everyPersonFromEveryScreenAndEveryLinkKeepsThem() throws {
        let server = try ServeProcess(["--db", try Self.database().path], environment: Self.utc)
        defer { _ = server.stop() }
        for person in Self.people {
            let mark = "person=" + Self.encoded(person)
            for screen in Self.screens {
                let page = try get(server.port, screen + "?" + mark)
                #expect(page.hasPrefix("HTTP/1.1 200"), "\(screen) for \(person): \(page.prefix(300))")
                #expect(Self.shown(page) == person, "\(screen) for \(person)")
                let switcher = Self.switcher(page)
                #expect(switcher.people == Self.people && switcher.selected == person, "\(screen) for \(person): \(switcher)")
                let addresses = Self.appAddresses(page)
                #expect(addresses.count >= 5, "\(screen): \(addresses)")
                for address in addresses where !address.contains(mark) {
                    Issue.record("\(screen) for \(person) links \(address) without the person")
                }
                // GET forms (the switcher, the date picker, a period's window) send the person as a field.
                for form in Self.matches(#"<form[^>]*method="get"[\s\S]*?</form>"#, in: page).map({ $0[0] }) {
                    #expect(form.contains("name=\"person\" value=\"\(Self.html(person))\"") || form.contains("id=\"person-picker\""), "\(screen): \(form)")
                }
            }
        }
        // Following the links of ben&co's day: each screen it opens is still ben&co's.
        let day = try get(server.port, "/day/2009-12-14?person=ben%26co")
        let links = Set(Self.matches(##"href="(/[^"#]*)"##, in: day).map { Self.unescaped($0[1]) })
        #expect(links.contains { $0.hasPrefix("/day/2009-12-13") } && links.contains { $0.hasPrefix("/agp") }, "\(links)")
        for link in links {
            let page = try get(server.port, link)
            #expect(page.hasPrefix("HTTP/1.1 200") && Self.shown(page) == "ben&co", "\(link): \(page.prefix(300))")
        }
        // The date picker without the script: /day?date= goes on with the person.
        let picked = try get(server.port, "/day?date=2009-12-10&person=ben%26co")
        #expect(Self.header(picked, "Location") == "/day/2009-12-10?person=ben%26co", "\(picked.prefix(300))")
    }

    @Test func aFormPostedOnSomeonesScreenWritesToThem() throws {
        let db = try Self.database()
        let server = try ServeProcess(["--db", db.path], environment: Self.utc)
        defer { _ = server.stop() }
        for (person, carbs) in [("ben&co", 33), ("carl", 44), ("anna lee", 55)] {
            let page = try get(server.port, "/day/2009-12-14?person=" + Self.encoded(person))
            let cookie = try #require(Self.header(page, "Set-Cookie")?.split(separator: ";").first.map(String.init))
            let form = try #require(Self.matches(#"action="([^"]*)" id="add-meal"><input type="hidden" name="back" value="([^"]*)""#, in: page).first)
            let (action, back) = (Self.unescaped(form[1]), Self.unescaped(form[2]))
            let answer = try post(server.port, action, body: "carbs=\(carbs)&at=2009-12-14T12%3A00&back=" + Self.encoded(back), cookie: cookie)
            #expect(answer.hasPrefix("HTTP/1.1 303"), "\(answer.prefix(400))")
            #expect(Self.header(answer, "Location")?.hasPrefix("/day/2009-12-14?person=" + Self.encoded(person) + "&msg=") == true, "\(answer.prefix(400))")
            let stored = PersonZoneAppTests.sqlite(db, "SELECT subject FROM events WHERE kind = 'meal' AND carbs_g = \(carbs)")
            #expect(stored == person, "a meal typed on \(person)'s day was stored for \(stored)")
        }
        // Someone the database does not hold: a 404 in plain words that links everyone; a form for them stores nothing.
        let missing = try get(server.port, "/days?person=nobody")
        #expect(missing.hasPrefix("HTTP/1.1 404"), "\(missing.prefix(200))")
        #expect(missing.contains("There is no one called “nobody” in this database."))
        for person in Self.people { #expect(missing.contains("href=\"/?person=\(Self.html(Self.encoded(person)))\"")) }
        let page = try get(server.port, "/")
        let cookie = try #require(Self.header(page, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let token = String(page[try #require(page.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let refused = try post(server.port, "/app/meal?person=nobody&" + token, body: "carbs=66&at=2009-12-14T12%3A00&back=%2F", cookie: cookie)
        #expect(refused.hasPrefix("HTTP/1.1 404"), "\(refused.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT count(*) FROM events WHERE carbs_g = 66") == "0")
    }

    @Test func serveSubjectIsThePersonShownFirst() throws {
        let db = try Self.database()
        for person in ["ben&co", "carl"] {
            let server = try ServeProcess(["--db", db.path, "--subject", person], environment: Self.utc)
            defer { _ = server.stop() }
            for screen in Self.screens {
                let page = try get(server.port, screen)
                #expect(Self.shown(page) == person && Self.switcher(page).selected == person, "\(screen) with --subject \(person)")
                // Everyone stays reachable: the switcher lists them and their screens answer.
                #expect(Self.switcher(page).people == Self.people)
            }
            #expect(Self.shown(try get(server.port, "/agp?person=anna%20lee")) == "anna lee")
        }
    }
}
