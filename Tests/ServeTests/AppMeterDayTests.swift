import Foundation
import HealthPipeTestSupport
import Testing

/// A meter user (finger sticks, no CGM) sees their glucose (issue 38 item 2): the app opens on their
/// last day with checks, draws every check of the day with its value, gives the day's numbers from
/// them, and the days table lists their days with the checks' low, average and high. Real mySugr
/// export (Tests/Fixtures/real/mysugr); the counts come from the store.
@Suite struct AppMeterDayTests {
    typealias T = AppPeopleTests

    static func database() throws -> URL {
        let db = ServeProcess.tempDir().appendingPathComponent("meter.sqlite")
        let file = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/mysugr/mysugr-en-us-mgdl.csv")
        let r = AppDatabase.run(ServeProcess.binary.path, ["import", file.path, "--db", db.path, "--subject", "mia",
                                                           "--timezone", "America/New_York", "--quiet"], environment: T.utc)
        guard r.code == 0 else { throw ServeTestError("import failed: \(r.output)") }
        return db
    }

    static func sql(_ db: URL, _ query: String) -> [String] {
        PersonZoneAppTests.sqlite(db, query).split(separator: "\n").map(String.init)
    }

    @Test func theDayAndTheDaysTableShowTheChecks() throws {
        let db = try Self.database()
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let local = "date(start + utc_offset, 'unixepoch')"
        let last = try #require(Self.sql(db, "SELECT \(local), count(*) FROM measurements WHERE metric = 'blood_glucose' GROUP BY 1 ORDER BY 1 DESC LIMIT 1").first)
        let parts = last.split(separator: "|").map(String.init)
        let (lastDay, checks) = (parts[0], try #require(Int(parts[1])))

        // The app opens on the last day with checks, every check drawn with its tooltip, the day's numbers theirs.
        let home = try T().get(server.port, "/")
        #expect(home.contains("data-date=\"\(lastDay)\"") || home.contains("value=\"\(lastDay)\""), "\(home.prefix(400))")
        // The page carries the wide chart and the phone's: each draws every check.
        #expect(DrawnMarks.checks(home) == 2 * checks, "checks drawn")
        // One check is given as its value; more as their mean and range.
        #expect(home.contains(checks == 1 ? "1 BG check: <b>" : "\(checks) BG checks: Mean"), "facts")
        #expect(!home.contains("No glucose readings"))

        // Every day with checks in the days table's window says how many, with their low/average/high.
        let days = try T().get(server.port, "/days")
        let byDay = Self.sql(db, "SELECT day, n FROM daily_summaries WHERE subject = 'mia' AND metric = 'blood_glucose' AND n > 0 "
                                 + "AND day > date('\(lastDay)', '-90 days') ORDER BY day")
        #expect(!byDay.isEmpty)
        for row in byDay {
            let p = row.split(separator: "|").map(String.init)
            let n = try #require(Int(p[1]))
            let cell = T.matches(#"data-date="\#(p[0])"[^>]*>[\s\S]*?<small class="checks">(\d+) BG checks?</small>"#, in: days).first
            #expect(cell?[1] == String(n), "\(p[0]): \(n) checks")
        }
        #expect(!days.contains("No daily summaries in this period"))
    }

    /// Under the chart, every record of the day is listed in time order — the pump's doses, the meter's
    /// checks with their values, its device events (rewind, suspend, resume) — as many as the store
    /// holds for that local day (issue 38 item 2: "Nothing logged this day yet" under seven boluses).
    @Test func theDayListsEverythingItsRecordsHold() throws {
        let db = ServeProcess.tempDir().appendingPathComponent("pump.sqlite")
        let file = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/carelink/carelink-en-paradigm522-v101.csv")
        let r = AppDatabase.run(ServeProcess.binary.path, ["import", file.path, "--db", db.path, "--timezone", "America/Los_Angeles", "--quiet"],
                                environment: T.utc)
        #expect(r.code == 0, "\(r.output)")
        let server = try ServeProcess(["--db", db.path], environment: T.utc)
        defer { _ = server.stop() }
        let local = "date(start + utc_offset, 'unixepoch')"
        let days = Self.sql(db, "SELECT \(local) FROM events WHERE kind = 'device' UNION SELECT \(local) FROM measurements "
                                + "WHERE metric = 'blood_glucose' ORDER BY 1 LIMIT 6")
        #expect(days.count == 6)
        for day in days {
            let events = Int(Self.sql(db, "SELECT count(*) FROM events WHERE kind <> 'episode' AND \(local) = '\(day)'").first ?? "") ?? -1
            let checks = Int(Self.sql(db, "SELECT count(*) FROM measurements WHERE metric = 'blood_glucose' AND \(local) = '\(day)'").first ?? "") ?? -1
            let page = try T().get(server.port, "/day/" + day)
            let list = try #require(T.matches(#"<details class="day-record"[^>]*>[\s\S]*?</details>"#, in: page).first?[0], "\(day)")
            #expect(list.components(separatedBy: "<li>").count - 1 == events + checks, "\(day): \(events) events, \(checks) checks")
            #expect(list.components(separatedBy: "BG check ").count - 1 == checks, "\(day)")
            #expect(!page.contains("Nothing logged"))
        }
    }
}
