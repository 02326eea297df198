import Foundation
import Testing

/// One subject rule for the log commands: `--subject`, else the database's only subject, else a
/// usage error naming the subjects. Before it, `add insulin` on an imported database wrote to
/// subject `default`, so the dose never showed on the imported person's day, and `days --last 3`
/// printed nothing with exit 0.
@Suite struct SubjectRuleTests {
    static let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.csv").path

    @Test func anEntryGoesToTheDatabasesOnlySubject() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect([0, 3].contains(try E2E.run(["import", Self.clarity, "--db", db.path, "--timezone", "Europe/Rome", "--subject", "alice", "--quiet"]).code))
        let lastDay = E2E.scalar(db, "SELECT max(day) FROM daily_summaries WHERE subject = 'alice'")
        let added = try E2E.run(["add", "insulin", "4", "--db", db.path, "--timezone", "Europe/Rome", "--at", "\(lastDay) 08:00"])
        #expect(added.code == 0, "\(added.stderr)")
        #expect(E2E.query(db, "SELECT subject, insulin_u FROM events WHERE kind = 'insulin' AND import_id IS NULL") == [["alice", "4.0"]])
        let days = try E2E.run(["days", "--db", db.path, "--last", "3", "--json"])
        #expect(days.code == 0, "\(days.stderr)")
        #expect(days.stdout.contains("\"subject\":\"alice\"") && days.stdout.contains(lastDay), "\(days.stdout.prefix(400))")

        // A second person: the commands no longer guess.
        #expect(try E2E.run(["add", "insulin", "2", "--db", db.path, "--subject", "bob", "--at", "2024-01-01 08:00", "--timezone", "UTC"]).code == 0)
        let ambiguous = try E2E.run(["days", "--db", db.path, "--last", "3"])
        #expect(ambiguous.code == 2)
        #expect(ambiguous.stderr.contains("several subjects (alice, bob): choose one with --subject"), "\(ambiguous.stderr)")
        #expect(try E2E.run(["days", "--db", db.path, "--last", "3", "--subject", "alice"]).code == 0)
        // A new database has no one yet: entries go to `default`, as an import without --subject does.
        let fresh = dir.appendingPathComponent("new.sqlite")
        #expect(try E2E.run(["add", "insulin", "1", "--db", fresh.path, "--at", "2024-01-01 08:00", "--timezone", "UTC"]).code == 0)
        #expect(E2E.scalar(fresh, "SELECT subject FROM events") == "default")
    }
}
