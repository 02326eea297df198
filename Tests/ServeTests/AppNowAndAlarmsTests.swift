import Foundation
import Testing

/// Issue 38 items 2 and 4 on real exports: the pump's alarms and device events drawn on the day
/// chart's time axis (as many as the store holds for the day); the Now screen with a current value
/// (age, arrow, change) and with a stale one said plainly, never shown as current. (`page` drawing a
/// meter user's checks: PageOnRealDataBrowserTests.aMeterUserSeesTheirChecksOnTheDays.)
@Suite struct AppNowAndAlarmsTests {
    typealias T = AppPeopleTests
    typealias S = NightscoutSupport

    static func count(_ text: String, _ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// A MiniMed 780G export: CGM, pump alarms (low, prolonged high, SmartGuard) and suspends, rewinds.
    static func carelink() throws -> URL {
        let db = ServeProcess.tempDir().appendingPathComponent("pump.sqlite")
        let file = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/carelink/carelink-en-780g-mmol.csv")
        let r = AppDatabase.run(ServeProcess.binary.path, ["import", file.path, "--db", db.path, "--timezone", "America/Los_Angeles", "--quiet"],
                                environment: T.utc)
        guard r.code == 0 else { throw ServeTestError("import failed: \(r.output)") }
        return db
    }

    @Test func thePumpsAlarmsAndEventsAreOnTheTimeAxis() throws {
        let db = try Self.carelink()
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let local = "date(start + utc_offset, 'unixepoch')"
        let days = AppMeterDayTests.sql(db, "SELECT \(local), count(*) FROM events WHERE kind IN ('alert', 'device') GROUP BY 1 ORDER BY 2 DESC")
        #expect(days.count == 3 && AppMeterDayTests.sql(db, "SELECT count(*) FROM events WHERE kind = 'alert'").first == "5")
        for row in days {
            let p = row.split(separator: "|").map(String.init)
            let page = try T().get(server.port, "/day/" + p[0])
            // The wide chart and the phone's each draw every one, close ones gathered (their count on the mark).
            let marks = T.matches(#"<g class="axis-event [^"]*" data-count="(\d+)""#, in: page).map { Int($0[1])! }
            #expect(marks.reduce(0, +) == 2 * Int(p[1])!, "\(p[0]): \(p[1]) alarms and events, drawn \(marks)")
            #expect(page.contains("On the time axis: ▲ alarms, ■ pump and device events."))
        }
    }

    /// A history years old: "No current reading", the last value with its time and age, no big value.
    @Test func aStaleReadingIsSaidPlainlyNeverShownAsCurrent() throws {
        let db = try Self.carelink()
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let last = try #require(AppMeterDayTests.sql(db, "SELECT value, strftime('%H:%M', start + utc_offset, 'unixepoch'), "
                                                     + "strftime('%d', start + utc_offset, 'unixepoch') + 0 FROM measurements "
                                                     + "WHERE metric = 'glucose' ORDER BY start DESC LIMIT 1").first).split(separator: "|")
        let mmol = String(format: "%.1f", Double(last[0])! / 18.0182)
        let now = try T().get(server.port, "/now")
        // Days ago: with its date ("on Sat 11 Nov 2023 at 01:20"), not only a time that reads like today's.
        let said = #"<b>No current reading.</b> The last reading was \#(mmol) mmol/L on \w{3} \#(last[2]) \w{3} \d{4} at \#(last[1]), \d+ days ago\."#
        #expect(!T.matches(said, in: now).isEmpty, "\(now.prefix(3000))")
        #expect(now.contains("days ago."))
        #expect(!now.contains("class=\"now-value") && !now.contains("class=\"arrow\""))
        // Linked from every screen's tabs.
        for screen in ["/", "/days", "/now"] {
            #expect(try T().get(server.port, screen).contains("<a href=\"/now?person=default\""), "\(screen)")
        }
    }

    /// Readings uploaded a few minutes ago: the value large, its age, arrow and change.
    @Test func aCurrentReadingWithItsAgeArrowAndChange() throws {
        let server = try S.server(S.database(), ["--subject", "sam"])
        defer { _ = server.stop() }
        let t = Date().timeIntervalSince1970 - 7 * 60 - 20
        let body = "[" + [(t - 300, 150), (t, 160)].map { #"{"type":"sgv","sgv":\#($0.1),"date":\#(Int64($0.0 * 1000))}"# }.joined(separator: ",") + "]"
        let upload = try S.send(server, "/api/v1/entries", Data(body.utf8))
        #expect(upload.status == 200, "\(upload.text)")
        let now = try HTTPExchange.send(server.base + "/now", headers: ["api-secret": S.hash]).text
        // 160 mg/dL = 8.9 mmol/L, +10 mg/dL in 5 min = +0.6 mmol/L (2 mg/dL a minute: rising).
        #expect(now.contains("<span class=\"value\""), "\(now.prefix(3000))")
        #expect(now.contains(">8.9</span> <span class=\"unit\">mmol/L</span> <span class=\"arrow\" role=\"img\" aria-label=\"rising\""))
        #expect(now.contains(" · 7 min ago · +0.6 mmol/L in 5 min, rising"), "\(now.prefix(3000))")
        #expect(!now.contains("No current reading"))
        #expect(now.contains("(2 of 2 readings in range)") || now.contains("no readings yet today"))
    }
}
