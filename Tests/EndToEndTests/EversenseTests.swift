import Foundation
import Testing

/// Issue 20: the Eversense DMS export (an Excel workbook: EventDateStr, EventTimeStr, Value,
/// UnitMeasureVal, SensorID) was refused ("a zip archive without an Apple Health export in it",
/// exit 1, nothing stored). The file is a layout-exact excerpt of a real export
/// (Tests/Fixtures/real/eversense, docs/vendors/eversense.md). Run with HEALTHPIPE_BINARY pointing
/// at an older build to see these fail there.
@Suite struct EversenseTests {
    static let file = E2E.fixtures.appendingPathComponent("real/eversense/eversense-dms-en-mgdl.xlsx")

    /// The workbook imports by content (no --format): every reading lands as glucose at its local
    /// time in the given zone, and a second import adds nothing.
    @Test func dmsWorkbookImportsByContent() throws {
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", Self.file.path, "--db", db.path, "--timezone", "Europe/Rome"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "eversense")
        #expect(E2E.scalar(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose' AND source = 'Eversense'") == "150")
        #expect(E2E.scalar(db, "SELECT sum(value) FROM measurements WHERE metric = 'glucose'") == "13195.0")
        // The newest row, first in the sheet: 10-July-2021 | 10:35 AM | 135 → 08:35 UTC (Rome in summer, +02:00).
        #expect(E2E.query(db, "SELECT start, value FROM measurements ORDER BY start DESC LIMIT 1")
                == [[String(1_625_906_100), "135.0"]])

        let again = try E2E.run(["import", Self.file.path, "--db", db.path, "--timezone", "Europe/Rome"])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports ORDER BY rowid DESC LIMIT 1") == "0")
    }
}
