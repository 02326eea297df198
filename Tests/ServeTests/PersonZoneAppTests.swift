import Foundation
import Testing

/// The app reads and shows times on the person's clock (`healthpipe person`; `serve --timezone` for
/// someone without a zone), not the server's: the server runs with TZ=UTC, as servers do, and the
/// person lives in Los Angeles — a bolus typed in a form lands where the pump's own record of it does.
@Suite struct PersonZoneAppTests {
    static let pump = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/carelink/carelink-en-paradigm522-v101.csv")
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static let utc = ["TZ": "UTC"]

    func get(_ port: Int, _ path: String, cookie: String = "") throws -> String {
        try RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookie.isEmpty ? "" : "Cookie: \(cookie)\r\n")Connection: close\r\n\r\n")
    }

    func post(_ port: Int, _ path: String, body: String, cookie: String) throws -> String {
        try RawHTTP.exchange(port: port, "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                             + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
    }

    /// Types the pump's 12/14/09 13:05:04 bolus (3.4 U) in the day's insulin form.
    func typeBolus(_ server: ServeProcess) throws {
        let page = try get(server.port, "/day/2009-12-14")
        let cookie = try #require(page.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }?
            .dropFirst(11).split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) })
        let token = String(page[try #require(page.range(of: #"form_token=[0-9a-f]{64}"#, options: .regularExpression))])
        let added = try post(server.port, "/app/insulin?" + token, body: "units=3.4&at=2009-12-14T13%3A05%3A04&back=%2Fday%2F2009-12-14", cookie: cookie)
        #expect(added.hasPrefix("HTTP/1.1 303") && added.contains("msg=insulin"), "\(added.prefix(400))")
    }

    static func sqlite(_ db: URL, _ sql: String) -> String {
        AppDatabase.run("/usr/bin/env", ["sqlite3", db.path, sql]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func bolus(_ db: URL, manual: Bool) -> String {
        sqlite(db, "SELECT start || ' ' || utc_offset FROM events WHERE kind = 'insulin' AND insulin_u = 3.4 AND source \(manual ? "=" : "<>") 'manual'")
    }

    static func importPump(_ db: URL) throws {
        let r = AppDatabase.run(ServeProcess.binary.path, ["import", pump.path, "--db", db.path, "--timezone", "America/Los_Angeles", "--quiet"],
                                environment: utc)
        guard r.code == 0 else { throw ServeTestError("import failed: \(r.output)") }
    }

    @Test func aBolusTypedInTheAppLandsWithThePumpsOwn() throws {
        // The person's zone, given by the import of their pump file.
        let dir = ServeProcess.tempDir(), db = dir.appendingPathComponent("pump.sqlite")
        try Self.importPump(db)
        let pumpBolus = Self.bolus(db, manual: false)
        #expect(pumpBolus == "1260824704 -28800")
        do {
            let server = try ServeProcess(["--db", db.path], environment: Self.utc)
            defer { _ = server.stop() }
            try typeBolus(server)
        }
        #expect(Self.bolus(db, manual: true) == pumpBolus)
        // The Nightscout API serves both with the pump's offset.
        let api = try ServeProcess(["--db", db.path], environment: Self.utc.merging(["API_SECRET": NightscoutSupport.secret]) { $1 })
        defer { _ = api.stop() }
        let docs = try NightscoutSupport.get(api, "/api/v1/treatments.json?count=1000&find%5Bcreated_at%5D%5B%24gte%5D=2009-12-14T00:00:00Z"
                                              + "&find%5Bcreated_at%5D%5B%24lt%5D=2009-12-16T00:00:00Z").filter { ($0["insulin"] as? Double) == 3.4 }
        #expect(docs.count == 2 && docs.allSatisfy { $0["utcOffset"] as? Int == -480 && $0["created_at"] as? String == docs[0]["created_at"] as? String },
                "\(docs)")

        // A person without a zone of their own: `serve --timezone` is theirs.
        let fresh = dir.appendingPathComponent("fresh.sqlite")
        let meal = AppDatabase.run(ServeProcess.binary.path, ["add", "meal", "--carbs", "20", "--at", "2009-12-13T12:00:00Z", "--db", fresh.path],
                                   environment: Self.utc)
        #expect(meal.code == 0, "\(meal.output)")
        let server = try ServeProcess(["--db", fresh.path, "--timezone", "America/Los_Angeles"], environment: Self.utc)
        defer { _ = server.stop() }
        try typeBolus(server)
        #expect(Self.bolus(fresh, manual: true) == pumpBolus)
    }

    /// `2024-03-05T08:12` now in `zone`.
    static func localNow(_ zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return f.string(from: Date())
    }

    static func minuteOfDay(_ local: String) -> Int { Int(local.dropFirst(11).prefix(2))! * 60 + Int(local.dropFirst(14).prefix(2))! }

    @Test func theFormsNowAndTheReminderAreOnThePersonsClock() throws {
        let dir = ServeProcess.tempDir(), db = dir.appendingPathComponent("pump.sqlite")
        try Self.importPump(db)
        // A reminder time between the two clocks: due on one of them, not yet on the other.
        let here = Self.localNow(Self.la), server = Self.localNow(TimeZone(identifier: "UTC")!)
        let a = Self.minuteOfDay(here), b = Self.minuteOfDay(server)
        let reminder = (a < b ? b : a) - 1
        let reminderText = String(format: "%02d:%02d", reminder / 60, reminder % 60)
        let set = AppDatabase.run(ServeProcess.binary.path, ["alerts", "set", "--reminder", reminderText, "--db", db.path], environment: Self.utc)
        #expect(set.code == 0, "\(set.output)")

        let app = try ServeProcess(["--db", db.path], environment: Self.utc)
        defer { _ = app.stop() }
        let before = Self.localNow(Self.la)
        let day = try get(app.port, "/day/" + before.prefix(10))
        let reports = try get(app.port, "/reports")
        let after = Self.localNow(Self.la)
        let nowValues = [before, after].map { "name=\"at\" value=\"\($0)\"" }
        #expect(nowValues.contains { day.contains($0) }, "the insulin form's time is now in Los Angeles (\(before))")
        #expect(nowValues.contains { reports.contains($0) }, "the report form's time is now in Los Angeles (\(before))")
        // Due in Los Angeles only when its clock is past the reminder.
        let dueHere = a > b
        #expect(reports.contains("id=\"reminders\"") == dueHere, "reminder \(reminderText), Los Angeles \(here), UTC \(server)")
        if dueHere { #expect(reports.contains("it was due at \(reminderText)")) }
    }
}
