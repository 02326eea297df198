import Foundation
import Testing

/// Clarity layouts found in real exports beyond the header language: a DST fall-back whose repeated
/// hour Clarity interleaves, and a header whose timestamp cell its owner renamed.
@Suite struct ClarityVariantsTests {
    let g6 = E2E.fixtures.appendingPathComponent("real/clarity/clarity-en-g6-edited-header.csv")

    /// Clarity sorts rows by local time, so the two passes of 01:00–02:00 on a fall-back night come
    /// in pairs with the same timestamp; the transmitter clock places each on its own instant, and
    /// no reading is lost. (The header is restored here so that only the repeated hour is tested.)
    @Test func repeatedHourOfDSTFallBackKeepsEveryReading() throws {
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("export.csv"), db = dir.appendingPathComponent("h.sqlite")
        let text = try String(contentsOf: g6, encoding: .utf8)
            .replacingOccurrences(of: "\"date_time\"", with: "\"Timestamp (YYYY-MM-DDThh:mm:ss)\"")
        try E2E.write(text, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "America/New_York"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "metric = 'glucose'") == 110)
        // 24 rows at local 01:xx on 2022-11-06: 12 in daylight time (-4 h), 12 in standard time (-5 h).
        #expect(E2E.query(db, """
            SELECT utc_offset, count(*) FROM measurements
            WHERE metric = 'glucose' AND datetime(start + utc_offset, 'unixepoch') LIKE '2022-11-06 01:%' GROUP BY 1 ORDER BY 1
            """) == [["-18000", "12"], ["-14400", "12"]])
        // Each pass keeps its transmitter order: the second-pass 01:01:20 is one hour after the first.
        #expect(E2E.query(db, """
            SELECT value FROM measurements WHERE metric = 'glucose'
            AND datetime(start + utc_offset, 'unixepoch') = '2022-11-06 01:01:20' ORDER BY start
            """) == [["55.0"], ["46.0"]])
    }

    /// The same export as its owner saved it (timestamp header renamed `date_time`, preamble
    /// dropped): found by Clarity's structure — 14 columns, the glucose unit in the 8th, and rows of
    /// an integer Index, an ISO timestamp and an event code.
    @Test func renamedTimestampHeaderIsFoundByStructure() throws {
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", g6.path, "--db", db.path, "--timezone", "America/New_York"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(db, "SELECT format, rejected FROM imports") == [["dexcom-clarity", "0"]])
        #expect(E2E.query(db, "SELECT metric, count(*) FROM measurements GROUP BY 1 ORDER BY 1")
                == [["blood_glucose", "6"], ["glucose", "110"]])
        #expect(E2E.count(db, "measurements", "metric = 'blood_glucose' AND flags & 32 != 0") == 6)
    }

    /// Coming home from a trip one zone west, the phone's clock goes back an hour: Clarity writes that hour's
    /// local times twice, interleaved, each pair 3600 s apart on the transmitter clock (as in a real G7 export
    /// of Tests/Fixtures/real/clarity, 2023-12-26). The second of a pair used to vanish as the first one's
    /// duplicate; it is quarantined with its line and reason, and every other reading lands.
    @Test func clockMovedBackOverlapIsQuarantinedNotLost() throws {
        let csv = """
            Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,Source Device ID,\
            Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),\
            Glucose Rate of Change (mg/dL/min),Transmitter Time (Long Integer),Transmitter ID
            1,2023-12-26T15:10:43,EGV,,,,iOS G7,140,,,,,1000,123456789012
            2,2023-12-26T15:15:43,EGV,,,,iOS G7,142,,,,,1300,123456789012
            3,2023-12-26T15:15:43,EGV,,,,iOS G7,120,,,,,4900,123456789012
            4,2023-12-26T15:20:43,EGV,,,,iOS G7,119,,,,,5200,123456789012
            5,2023-12-26T15:20:43,EGV,,,,iOS G7,144,,,,,1600,123456789012
            6,2023-12-26T16:20:43,EGV,,,,iOS G7,110,,,,,8800,123456789012

            """
        let dir = E2E.tempDir(), file = dir.appendingPathComponent("export.csv"), db = dir.appendingPathComponent("h.sqlite")
        try E2E.write(csv, to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--timezone", "America/Chicago"])
        #expect(r.code == 3, "\(r.stderr)")  // done, with quarantined rows
        #expect(E2E.query(db, "SELECT value FROM measurements ORDER BY start") == [["140.0"], ["142.0"], ["119.0"], ["110.0"]])
        let quarantine = (try? String(contentsOf: dir.appendingPathComponent("h.quarantine.ndjson"), encoding: .utf8)) ?? ""
        let lines = quarantine.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("\"line\":4") && $0.contains("3600 s apart") && $0.contains(",120,") })
        #expect(lines.contains { $0.contains("\"line\":6") && $0.contains("-3600 s apart") && $0.contains(",144,") })
    }
}
