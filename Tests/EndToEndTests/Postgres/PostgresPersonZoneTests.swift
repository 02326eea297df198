import Foundation
import Testing

/// A PostgreSQL store keeps each person's zone as SQLite does (`subject_zones`): the first
/// `import --timezone` gives it, `healthpipe person` lists and changes it.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresPersonZoneTests {
    @Test func theImportGivesTheZoneAndPersonMovesThem() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("zones")
        let url = server.url("zones")
        let pump = E2E.fixtures.appendingPathComponent("real/carelink/carelink-en-paradigm522-v101.csv")
        let imported = try E2E.run(["import", pump.path, "--db", url, "--timezone", "America/Los_Angeles", "--quiet"])
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(try server.query("zones", "SELECT subject, effective_from, zone FROM subject_zones")
                == [["default", "-315619200", "America/Los_Angeles"]])
        let again = try E2E.run(["import", pump.path, "--db", url, "--timezone", "Europe/Berlin", "--quiet"])
        #expect(again.code == 0)
        #expect(try server.scalar("zones", "SELECT count(*) FROM subject_zones") == "1")

        let move = try E2E.run(["person", "--db", url, "--timezone", "Europe/Berlin", "--from", "2024-06-01"])
        #expect(move.code == 0, "\(move.stderr)")
        let listed = try E2E.run(["person", "--db", url])
        #expect(listed.stdout == "default: since always America/Los_Angeles\ndefault: from 2024-06-01 00:00 (+02:00) Europe/Berlin\n",
                "\(listed.stdout)\(listed.stderr)")
        #expect(!listed.stdout.contains(PostgresServer.password) && !listed.stderr.contains(PostgresServer.password))
    }
}
