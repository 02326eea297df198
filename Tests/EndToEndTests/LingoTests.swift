import Foundation
import Testing

/// Issue 20: an Abbott Lingo app export was "unknown format" (exit 1, nothing stored). The files are
/// layout-exact excerpts of real exports (Tests/Fixtures/real/lingo, docs/vendors/lingo.md). Run with
/// HEALTHPIPE_BINARY pointing at an older build to see these fail there.
@Suite struct LingoTests {
    static let folder = E2E.fixtures.appendingPathComponent("real/lingo")

    static func importFile(_ name: String, into dir: URL) throws -> (E2E.Result, URL, String) {
        let db = dir.appendingPathComponent("h.sqlite"), q = dir.appendingPathComponent("q.ndjson")
        // No --format and no --timezone: the content names the layout and every row carries its offset.
        let r = try E2E.run(["import", folder.appendingPathComponent(name).path, "--db", db.path, "--quarantine", q.path])
        return (r, db, (try? String(contentsOf: q, encoding: .utf8)) ?? "")
    }

    /// The UK app's mmol/L export lands whole as glucose, each reading at its own offset.
    @Test func ukMmolExportImportsByContent() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, db, _) = try Self.importFile("lingo-en-gb-mmol.csv", into: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("unknown format"), "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "lingo")
        #expect(E2E.scalar(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose' AND source = 'Lingo'") == "150")
        // The newest row, first in the file: 2026-05-06T00:50+01:00,4.9 → 23:50 UTC, 4.9 × 18.0156 ≈ 88 mg/dL.
        #expect(E2E.query(db, "SELECT start, value FROM measurements ORDER BY start DESC LIMIT 1")
                == [[String(1_778_025_000), "88.0"]])
    }

    /// The US app's mg/dL export: every reading lands; "Out of range" (no value, no direction) is
    /// quarantined with its line and raw text, never guessed; a second import adds nothing.
    @Test func usMgdlExportKeepsEveryReadingAndQuarantinesOutOfRange() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, db, quarantine) = try Self.importFile("lingo-en-us-mgdl.csv", into: dir)
        #expect(r.code == 3, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "lingo")
        #expect(E2E.scalar(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose'") == "144")
        // 2025-11-03T03:51-06:00,125 is 09:51 UTC.
        #expect(E2E.query(db, "SELECT start, value FROM measurements ORDER BY start DESC LIMIT 1")
                == [[String(1_762_163_460), "125.0"]])
        let lines = quarantine.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.first?.contains("\"line\":75") == true)
        #expect(lines.allSatisfy { $0.contains("Out of range") && $0.contains("not a number") })

        let (again, _, _) = try Self.importFile("lingo-en-us-mgdl.csv", into: dir)
        #expect(again.code == 3, "\(again.stderr)")
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports ORDER BY rowid DESC LIMIT 1") == "0")
    }
}
