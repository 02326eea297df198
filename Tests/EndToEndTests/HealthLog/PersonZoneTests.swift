import Foundation
import Testing

/// Each person's zone (`subject_zones`, `healthpipe person`): a time typed without `--timezone` is read
/// on the person's clock, not this computer's. The commands run with TZ=UTC, the zone of a server, so
/// a time read in the computer's zone lands hours away from the pump's.
@Suite struct PersonZoneTests {
    static let pump = E2E.fixtures.appendingPathComponent("real/carelink/carelink-en-paradigm522-v101.csv")
    static let utc = ["TZ": "UTC"]

    /// The pump's bolus of `units`: its instant and offset as the import stored them.
    static func pumpBolus(_ db: URL, units: String) -> [String] {
        E2E.query(db, "SELECT start, utc_offset FROM events WHERE kind = 'insulin' AND source <> 'manual' AND insulin_u = \(units)").first ?? []
    }

    static func typedBolus(_ db: URL, units: String) -> [String] {
        E2E.query(db, "SELECT start, utc_offset FROM events WHERE kind = 'insulin' AND source = 'manual' AND insulin_u = \(units)").first ?? []
    }

    @Test func anEntryTypedOnThePersonsClockLandsWithThePumpsBolus() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("pump.sqlite")
        // The pump file is read in the person's zone, which the import gives them (they had none).
        let imported = try E2E.run(["import", Self.pump.path, "--db", db.path, "--timezone", "America/Los_Angeles", "--quiet"], env: Self.utc)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(E2E.scalar(db, "SELECT zone FROM subject_zones WHERE subject = 'default'") == "America/Los_Angeles")
        // 12/14/09 13:05:04, 3.4 U (PST) and 9/27/09 18:43:00, 0.2 U (PDT) as read from the file.
        for (at, units) in [("2009-12-14 13:05:04", "3.4"), ("2009-09-27 18:43", "0.2")] {
            let r = try E2E.run(["add", "insulin", units, "--at", at, "--db", db.path], env: Self.utc)
            #expect(r.code == 0, "\(r.stderr)")
            let pump = Self.pumpBolus(db, units: units)
            #expect(pump.count == 2)
            #expect(Self.typedBolus(db, units: units) == pump, "typed \(at) is the pump's \(units) U")
        }
        #expect(Self.pumpBolus(db, units: "3.4").last == "-28800" && Self.pumpBolus(db, units: "0.2").last == "-25200")
        // A second import with another zone does not move the person.
        let again = try E2E.run(["import", Self.pump.path, "--db", db.path, "--timezone", "Europe/Berlin", "--quiet"], env: Self.utc)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(E2E.query(db, "SELECT zone FROM subject_zones") == [["America/Los_Angeles"]])
    }

    @Test func aPersonWhoMovesKeepsTheOldEntriesInTheOldZone() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("log.sqlite")
        let first = try E2E.run(["person", "--db", db.path, "--timezone", "America/Los_Angeles"], env: Self.utc)
        #expect(first.code == 0 && first.stdout == "default: since always America/Los_Angeles\n", "\(first.stdout)\(first.stderr)")
        let move = try E2E.run(["person", "--db", db.path, "--timezone", "Europe/Berlin", "--from", "2024-06-01"], env: Self.utc)
        #expect(move.code == 0 && move.stdout == "default: from 2024-06-01 00:00 (+02:00) Europe/Berlin\n", "\(move.stdout)\(move.stderr)")
        let listed = try E2E.run(["person", "--db", db.path], env: Self.utc)
        #expect(listed.stdout == "default: since always America/Los_Angeles\ndefault: from 2024-06-01 00:00 (+02:00) Europe/Berlin\n")

        for (at, units) in [("2024-05-20 13:30", "1"), ("2024-06-10 13:30", "2")] {
            let r = try E2E.run(["add", "insulin", units, "--at", at, "--db", db.path], env: Self.utc)
            #expect(r.code == 0, "\(r.stderr)")
        }
        // 13:30 in Los Angeles before the move (20:30 UTC), in Berlin after it (11:30 UTC).
        #expect(E2E.query(db, "SELECT start, utc_offset, insulin_u FROM events ORDER BY start")
                == [["1716237000", "-25200", "1.0"], ["1718019000", "7200", "2.0"]])
        #expect(E2E.query(db, "SELECT id FROM manual_entries ORDER BY start") == [["insulin-20240520-1330"], ["insulin-20240610-1330"]])
        // --timezone still names this command's zone; an unknown zone is a usage mistake.
        let here = try E2E.run(["add", "insulin", "3", "--at", "2024-06-11 13:30", "--timezone", "+00:00", "--db", db.path], env: Self.utc)
        #expect(here.code == 0 && E2E.scalar(db, "SELECT utc_offset FROM events WHERE insulin_u = 3") == "0")
        let unknown = try E2E.run(["person", "--db", db.path, "--timezone", "Mars/Olympus"], env: Self.utc)
        #expect(unknown.code == 2 && unknown.stderr.contains("--timezone Mars/Olympus: unknown zone"))
    }

    @Test func theReminderFallsDueOnThePersonsClock() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("log.sqlite")
        #expect(try E2E.run(["person", "--db", db.path, "--timezone", "America/Los_Angeles"], env: Self.utc).code == 0)
        #expect(try E2E.run(["reports", "add", "--at", "2024-03-04 09:00", "--value", "body_temperature=36.8:3",
                             "--value", "heart_rate=60:3", "--db", db.path], env: Self.utc).code == 0)
        #expect(try E2E.run(["alerts", "set", "--reminder", "05:00", "--db", db.path], env: Self.utc).code == 0)
        // 06:00 in Los Angeles: due since 05:00 there (13:00 UTC); at 12:00 UTC (04:00 there) not yet.
        let due = try E2E.run(["alerts", "check", "--json", "--dry-run", "--now", "2024-03-05T14:00:00Z", "--db", db.path], env: Self.utc)
        #expect(due.code == 1, "\(due.stderr)")
        let alerts = try HealthLog.objects(due.stdout)
        #expect(alerts.count == 1 && alerts.first?["due"] as? String == "2024-03-05T05:00:00-08:00", "\(due.stdout)")
        let early = try E2E.run(["alerts", "check", "--json", "--dry-run", "--now", "2024-03-05T12:00:00Z", "--db", db.path], env: Self.utc)
        #expect(early.code == 0 && early.stdout.isEmpty, "\(early.stdout)")
    }

    /// A file without offsets imported without `--timezone` is read on the person's clock; a person
    /// who has moved (two zones) must still say which zone the file was written in.
    @Test func aFileWithoutOffsetsIsReadOnThePersonsClock() throws {
        let dir = E2E.tempDir(), given = dir.appendingPathComponent("given.sqlite"), person = dir.appendingPathComponent("person.sqlite")
        let withFlag = try E2E.run(["import", Self.pump.path, "--db", given.path, "--timezone", "America/Los_Angeles", "--quiet"], env: Self.utc)
        #expect(withFlag.code == 0, "\(withFlag.stderr)")
        #expect(try E2E.run(["person", "--db", person.path, "--timezone", "America/Los_Angeles"], env: Self.utc).code == 0)
        let byPerson = try E2E.run(["import", Self.pump.path, "--db", person.path, "--quiet"], env: Self.utc)
        #expect(byPerson.code == 0, "\(byPerson.stderr)")
        let events = "SELECT start, utc_offset, kind, insulin_u FROM events ORDER BY start, kind, insulin_u"
        #expect(!E2E.query(given, events).isEmpty)
        #expect(E2E.query(person, events) == E2E.query(given, events))

        let moved = dir.appendingPathComponent("moved.sqlite")
        #expect(try E2E.run(["person", "--db", moved.path, "--timezone", "America/Los_Angeles"], env: Self.utc).code == 0)
        #expect(try E2E.run(["person", "--db", moved.path, "--timezone", "Europe/Berlin", "--from", "2024-06-01"], env: Self.utc).code == 0)
        let unsure = try E2E.run(["import", Self.pump.path, "--db", moved.path, "--quiet"], env: Self.utc)
        #expect(unsure.code != 0 && unsure.stderr.contains("--timezone"), "\(unsure.code) \(unsure.stderr)")
        #expect(E2E.query(moved, "SELECT count(*) FROM events") == [["0"]])
    }
    /// A pipeline's `health-entry` without a zone of its own or the run's reads its typed times on the
    /// person's clock in the database it writes, across a move as `add` does; without a zone in the
    /// store it still asks for one.
    @Test func aPipelinesTypedEntryIsReadOnThePersonsClock() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("log.sqlite")
        for args in [["--timezone", "America/Los_Angeles"], ["--timezone", "Europe/Berlin", "--from", "2024-06-01"]] {
            let r = try E2E.run(["person", "--db", db.path] + args, env: Self.utc)
            #expect(r.code == 0, "\(r.stderr)")
        }
        func pipeline(_ name: String, db: String) throws -> URL {
            let yaml = """
                sources:
                  before: {type: health-entry, kind: insulin, at: "2024-05-20 13:30", units: 1}
                  after: {type: health-entry, kind: insulin, at: "2024-06-10 13:30", units: 2}
                sinks:
                  db: {type: sqlite, inputs: [before, after], path: \(db)}
                """
            let url = dir.appendingPathComponent(name)
            try yaml.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let run = try E2E.run(["run", try pipeline("typed.yaml", db: db.path).path, "--quiet"], env: Self.utc)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(E2E.query(db, "SELECT start, utc_offset, insulin_u FROM events ORDER BY start")
                == [["1716237000", "-25200", "1.0"], ["1718019000", "7200", "2.0"]])
        // A database without the person's zone: the typed time still needs an offset or a zone.
        let other = dir.appendingPathComponent("new.sqlite")
        let refused = try E2E.run(["run", try pipeline("new.yaml", db: other.path).path, "--quiet"], env: Self.utc)
        #expect(refused.code == 2 && refused.stderr.contains("has no offset"), "\(refused.stderr)")
    }
}
