import Foundation
import Testing

/// The real Dexcom Clarity samples, imported by the real binary into a real SQLite file.
@Suite struct ClarityImportTests {
    let clarity2016 = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv")
    let clarity1961 = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv")

    @Test func olderTwelveColumnExportImportsExactly() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", clarity2016.path, "--db", db.path, "--timezone", "UTC", "--subject", "joe"])
        #expect(r.code == 0, "\(r.stderr)")
        // 2160 lines: header, 11 metadata rows, 2148 EGV rows with unique timestamps.
        #expect(E2E.count(db, "measurements") == 2148)
        #expect(E2E.count(db, "measurements", "metric = 'glucose' AND source = 'Dexcom' AND unit = 'mg/dL'") == 2148)
        #expect(E2E.count(db, "events") == 0)
        // First and last EGV, spot-checked.
        #expect(E2E.query(db, "SELECT value, utc_offset, line FROM measurements ORDER BY start LIMIT 1") == [["103.0", "0", "13"]])
        #expect(E2E.scalar(db, "SELECT datetime(min(start), 'unixepoch') FROM measurements") == "2016-10-24 11:24:17")
        #expect(E2E.scalar(db, "SELECT datetime(max(start), 'unixepoch') FROM measurements") == "2016-11-01 09:19:02")
        #expect(E2E.scalar(db, "SELECT subject FROM measurements LIMIT 1") == "joe")
        #expect(E2E.query(db, "SELECT status, rows_read, measurements, rejected FROM imports") == [["complete", "2160", "2148", "0"]])
    }

    @Test func fourteenColumnExportWithDoubleBOMLowAndInsulin() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", clarity1961.path, "--db", db.path, "--timezone", "Europe/London"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == 3922)
        // Five literal "Low" readings: kept at the 40 mg/dL limit with the below-range flag (bit 0).
        #expect(E2E.count(db, "measurements", "flags & 1 = 1 AND value = 40") == 5)
        // 47 insulin rows: 33 fast-acting (bolus) and 14 long-acting (basal), two of them in the same minute.
        #expect(E2E.count(db, "events", "kind = 'insulin'") == 47)
        #expect(E2E.count(db, "events", "kind = 'insulin' AND subtype = 'basal'") == 14)
        #expect(E2E.scalar(db, "SELECT sum(insulin_u) FROM events") == "485.5")
        // London kept summer time in April 1961: local 00:56:47 is 23:56:47 UTC the day before.
        #expect(E2E.query(db, "SELECT datetime(start, 'unixepoch'), utc_offset, value FROM measurements ORDER BY start LIMIT 1")
                == [["1961-04-11 23:56:47", "3600", "144.0"]])
        // Daily rows are per local day: 1961-04-12 … 1961-04-25.
        #expect(E2E.count(db, "daily_summaries", "metric = 'glucose'") == 14)
        #expect(E2E.scalar(db, "SELECT min(day) FROM daily_summaries") == "1961-04-12")
    }

    @Test func reimportAddsNothing() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let args = ["import", clarity1961.path, clarity2016.path, "--db", db.path, "--timezone", "UTC"]
        #expect(try E2E.run(args).code == 0)
        let tables = ["measurements", "events", "daily_summaries", "daily_bands", "imports"]
        let before = tables.map { E2E.count(db, $0) }
        let second = try E2E.run(args)
        #expect(second.code == 0, "\(second.stderr)")
        #expect(tables.map { E2E.count(db, $0) } == before)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
        #expect(E2E.scalar(db, "SELECT min(runs) FROM imports") == "2")
    }

    @Test func naiveTimesWithoutZoneAreRefusedClearly() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", clarity2016.path, "--db", db.path])
        #expect(r.code == 1)
        #expect(r.stderr.contains("cgmquantify_test_file.csv:13") && r.stderr.contains("--timezone"))
        #expect(E2E.count(db, "measurements") == 0)
    }

    @Test func detectionIsByContentNotName() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let renamed = dir.appendingPathComponent("my data.txt")
        try FileManager.default.copyItem(at: clarity2016, to: renamed)
        let r = try E2E.run(["import", renamed.path, "--db", db.path, "--timezone", "UTC"])
        #expect(r.code == 0 && E2E.count(db, "measurements") == 2148)
        #expect(E2E.scalar(db, "SELECT format FROM imports") == "dexcom-clarity")
    }
}
