import Foundation
import Testing

/// The other real samples through the real binary: nothing collapses or goes missing on the way to SQLite.
@Suite struct OtherFormatsImportTests {
    func importOne(_ relative: String, zone: String = "Europe/London") throws -> (E2E.Result, URL) {
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", E2E.samples.appendingPathComponent(relative).path, "--db", db.path, "--timezone", zone])
        return (r, db)
    }

    @Test func libreViewScansAndHistoricReadingsInTheSameMinuteBothLand() throws {
        let (r, db) = try importOne("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")
        #expect(r.code == 0, "\(r.stderr)")
        // 4,305 historic + 316 scans = 4,621 readings. Scans are stored under "<device> (scan)", so the
        // 73 minutes with both a historic reading and a scan keep both; two scans share 14-04 20:38
        // (lines 4388 and 4389, 141 and 142 mg/dL): one natural key, the later line wins.
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == 4620)
        #expect(E2E.scalar(db, "SELECT value FROM measurements WHERE source LIKE '%(scan)' AND line = 4389") == "142.0")
        #expect(E2E.count(db, "measurements", "line = 4388") == 0)
        // The day table and metric sets count what is stored, scans listed last in the file included.
        #expect(E2E.scalar(db, "SELECT sum(n) FROM daily_summaries WHERE metric = 'glucose'") == "4620")
        #expect(E2E.scalar(db, "SELECT sum(value) FROM glucose_metrics WHERE name = 'n_readings'") == "4620.0")
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "libreview")
        #expect(E2E.scalar(db, "SELECT datetime(min(start), 'unixepoch') FROM measurements") == "1961-04-12 21:30:00")
    }

    @Test func careLinkSectionsLand() throws {
        let (r, db) = try importOne("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == 1499)
        #expect(E2E.count(db, "measurements") == 1539)
        #expect(E2E.count(db, "events") == 348)
        #expect(E2E.scalar(db, "SELECT sum(insulin_u) FROM events WHERE kind = 'insulin'") == "357.0")
    }

    @Test func nightscoutCSVQuarantinesErrorCodes() throws {
        let (r, db) = try importOne("nightscout/cgm_format_nightscout_entries.csv")
        #expect(r.code == 3)
        #expect(E2E.count(db, "measurements") == 994)
        #expect(E2E.scalar(db, "SELECT sum(value) FROM measurements") == "167216.0")
        #expect(E2E.scalar(db, "SELECT rejected FROM imports") == "6")
    }
}
