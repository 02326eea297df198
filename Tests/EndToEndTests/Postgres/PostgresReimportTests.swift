import Foundation
import Testing

/// Re-importing into PostgreSQL, where the rows stored exactly as staged are left out before anything
/// is sent (`StoredRowFilter`): among 150,000 readings (two transactions) sent again, the two whose
/// values were corrected — one in each transaction — are written and nothing else; the same readings
/// from another file change nothing; the store equals SQLite's after the same runs, stored and derived
/// rows alike.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresReimportTests {
    /// The export with the glucose of the readings numbered `indexes` raised by one.
    static func corrected(_ csv: URL, indexes: Set<Int>, into out: URL) throws {
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var changed = 0
        let text = lines.map { line -> String in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count > 12, cells[2] == "EGV", let i = Int(cells[12]), indexes.contains(i), let g = Int(cells[7]) else { return String(line) }
            cells[7] = String(g == 319 ? g - 1 : g + 1)
            changed += 1
            return cells.joined(separator: ",")
        }.joined(separator: "\n")
        #expect(changed == indexes.count)
        try Data(text.utf8).write(to: out)
    }

    @Test func aReimportWritesOnlyTheCorrectedReadings() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("again")
        let url = server.url("again")
        let dir = E2E.tempDir()
        let sqlite = dir.appendingPathComponent("ref.sqlite")
        let generated = try CrashConsistencyTests.generate(rows: 150_000, into: dir)
        let csv = dir.appendingPathComponent("export.csv")
        try FileManager.default.copyItem(at: generated, to: csv)
        func importIntoBoth(_ step: String) throws {
            for db in [url, sqlite.path] {
                let r = try E2E.run(["import", csv.path, "--db", db, "--timezone", "UTC"], cwd: dir)
                #expect(r.code == 0, "\(step): \(r.stderr)")
            }
            PostgresStoreTests.expectEqual(try PostgresStoreTests.snapshot(server, "again"), PostgresStoreTests.snapshot(sqlite: sqlite), step)
            #expect(try server.scalar("again", "SELECT count(*) FROM derived_pending") == "0", "\(step)")
        }
        try importIntoBoth("first import")
        let before = try server.query("again", "SELECT start, value FROM measurements ORDER BY start")
        #expect(before.count == 150_000)

        try importIntoBoth("the same file again")
        #expect(try server.scalar("again", "SELECT new_rows || ' ' || runs FROM imports") == "0 2")

        // One reading corrected in each transaction's rows (100,000 per transaction).
        try Self.corrected(generated, indexes: [1_000, 130_000], into: csv)
        try importIntoBoth("two readings corrected")
        #expect(try server.scalar("again", "SELECT new_rows || ' ' || runs FROM imports") == "2 3")
        let after = try server.query("again", "SELECT start, value FROM measurements ORDER BY start")
        #expect(after.count == before.count)
        let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing == [1_000, 130_000])

        // The same readings from another file (another import id, which the upsert does not compare):
        // nothing changes, the rows keep naming the file they came from first.
        let copy = dir.appendingPathComponent("copy.csv")
        try FileManager.default.copyItem(at: csv, to: copy)
        for db in [url, sqlite.path] {
            let r = try E2E.run(["import", copy.path, "--db", db, "--timezone", "UTC"], cwd: dir)
            #expect(r.code == 0, "\(r.stderr)")
        }
        PostgresStoreTests.expectEqual(try PostgresStoreTests.snapshot(server, "again"), PostgresStoreTests.snapshot(sqlite: sqlite),
                                       "another file")
        #expect(try server.scalar("again", "SELECT new_rows FROM imports WHERE path = '\(copy.path)'") == "0")
        #expect(try server.scalar("again", "SELECT count(*) FROM measurements m JOIN imports i ON i.id = m.import_id "
                                  + "WHERE i.path = '\(csv.path)'") == "150000")
    }
}
