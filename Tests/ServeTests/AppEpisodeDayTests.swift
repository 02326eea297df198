import Foundation
import Testing

/// The illness and stress switches act on the day shown (issue 38 item 3): switched on while looking
/// at a past day they store that whole day (00:00–23:59 on the person's clock), not an episode from
/// now; an episode begun today does not show on the days before it; switched off, the day's episode goes.
/// The days table's star toggles the day's favourite (seed 002).
@Suite struct AppEpisodeDayTests {
    typealias T = AppPeopleTests

    /// Posts the form `id` of `page` as the browser would (its hidden fields and its first button's value); the answer.
    func press(_ server: ServeProcess, _ page: String, _ id: String) throws -> String {
        let cookie = try #require(T.header(page, "Set-Cookie")?.split(separator: ";").first.map(String.init))
        let form = try #require(T.matches(#"<form method="post"[^>]*action="([^"]*)" id="\#(id)">[\s\S]*?</form>"#, in: page).first)
        let fields = T.matches(#"<input type="hidden" name="([^"]*)" value="([^"]*)">"#, in: form[0])
            + T.matches(#"<button type="submit"[^>]* name="([^"]*)" value="([^"]*)""#, in: form[0]).prefix(1)
        let body = fields.map { T.encoded($0[1]) + "=" + T.encoded(T.unescaped($0[2])) }.joined(separator: "&")
        return try AppPeopleTests().post(server.port, T.unescaped(form[1]), body: body, cookie: cookie)
    }

    func switchState(_ page: String, _ kind: String) -> String? {
        T.matches(#"id="switch-\#(kind)">[\s\S]*?aria-checked="(true|false)"[\s\S]*?<small>([^<]*)</small>"#, in: page).first.map { $0[1] + " " + $0[2] }
    }

    @Test func aSwitchOnAPastDayMarksThatDay() throws {
        let db = try T.database()
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let get = { (path: String) in try AppPeopleTests().get(server.port, path + "?person=ben%26co") }

        // 10 Dec 2009 in Los Angeles (the person's zone, from the pump's import): 08:00 UTC.
        let on = try press(server, try get("/day/2009-12-10"), "switch-illness")
        #expect(on.hasPrefix("HTTP/1.1 303"), "\(on.prefix(300))")
        let stored = PersonZoneAppTests.sqlite(db, "SELECT subject, start, end, flags & 256 FROM events WHERE kind = 'episode' AND subtype = 'illness'")
        #expect(stored == "ben&co|1260432000|1260518340|0", "\(stored)")
        #expect(switchState(try get("/day/2009-12-10"), "illness") == "true on this day")
        #expect(switchState(try get("/day/2009-12-11"), "illness") == "false off")

        // Stress switched on today runs from now, and is not on in 2009.
        let today = PersonZoneAppTests.localNow(PersonZoneAppTests.la).prefix(10)
        #expect(try press(server, try get("/day/" + today), "switch-stress").hasPrefix("HTTP/1.1 303"))
        let open = PersonZoneAppTests.sqlite(db, "SELECT flags & 256, abs(start - strftime('%s','now')) < 120 FROM events WHERE subtype = 'stress'")
        #expect(open == "256|1", "\(open)")
        #expect(switchState(try get("/day/" + today), "stress")?.hasPrefix("true on since ") == true)
        #expect(switchState(try get("/day/2009-12-10"), "stress") == "false off")

        // Switched off on the past day: its episode is gone, today's stress stays.
        #expect(try press(server, try get("/day/2009-12-10"), "switch-illness").hasPrefix("HTTP/1.1 303"))
        #expect(PersonZoneAppTests.sqlite(db, "SELECT count(*) FROM events WHERE kind = 'episode'") == "1")
        #expect(switchState(try get("/day/2009-12-10"), "illness") == "false off")
    }

    @Test func theDaysTablesStarTogglesTheFavourite() throws {
        let db = try T.database()
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let days = { try AppPeopleTests().get(server.port, "/days?person=anna%20lee") }
        let star = #"<form method="post" class="app-form inline star-form""#
        let first = try days()
        #expect(first.contains(star) && first.contains("aria-label=\"Star Wed 14 May 2025\""), "\(first.suffix(2000))")
        let starred = try press(server, first, "star-2025-05-14")
        #expect(starred.hasPrefix("HTTP/1.1 303"), "\(starred.prefix(300))")
        #expect(PersonZoneAppTests.sqlite(db, "SELECT subject, day FROM favourites") == "anna lee|2025-05-14")
        let second = try days()
        #expect(second.contains("aria-pressed=\"true\" aria-label=\"Remove the star of Wed 14 May 2025\"><span class=\"star on\""))
        #expect(try press(server, second, "star-2025-05-14").hasPrefix("HTTP/1.1 303"))
        #expect(PersonZoneAppTests.sqlite(db, "SELECT count(*) FROM favourites") == "0")
    }
}
