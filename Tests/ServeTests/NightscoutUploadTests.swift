import Foundation
import Testing

/// Uploads as xDrip+, Loop, AndroidAPS and Trio send them (Tests/Fixtures/nightscout-uploads and
/// real/nightscout, PROVENANCE.md) land as `healthpipe import` lands the same bytes — readings,
/// events, units, times and daily rows alike — and a second upload adds nothing.
@Suite struct NightscoutUploadTests {
    typealias S = NightscoutSupport

    static let bodies: [(path: String, file: String, method: String)] = [
        ("/api/v1/entries", "nightscout-uploads/xdrip-entries.json", "POST"),
        ("/api/v1/treatments", "nightscout-uploads/xdrip-treatment.json", "PUT"),
        ("/api/v1/entries.json", "real/nightscout/nightscout-loop-entries.json", "POST"),
        ("/api/v1/treatments", "real/nightscout/nightscout-loop-treatments.json", "POST"),
        ("/api/v1/treatments", "real/nightscout/nightscout-aaps-treatments.json", "POST"),
        ("/api/v1/treatments.json", "real/nightscout/nightscout-trio-treatments.json", "POST"),
        ("/api/v1/treatments", "real/nightscout/nightscout-xdrip4ios-treatments.json", "POST"),
    ]

    @Test func uploadsLandAsTheImportLandsThemAndOnlyOnce() throws {
        let served = S.database(), imported = S.database()
        let server = try S.server(served, ["--timezone", "Europe/Berlin"])
        for b in Self.bodies {
            let file = S.fixtures.appendingPathComponent(b.file)
            let bytes = try Data(contentsOf: file)
            let sent = try JSONSerialization.jsonObject(with: bytes)
            let r = try S.send(server, b.path, bytes, method: b.method)
            #expect(r.status == 200, "\(b.file): \(r.text)")
            let answer = try #require(r.json as? [[String: Any]])
            #expect(answer.count == ((sent as? [Any])?.count ?? 1), "\(b.file): one answer per document")
            #expect(answer.allSatisfy { ($0["_id"] as? String)?.count == 24 || $0["error"] != nil })
            #expect(try S.importFile(file.path, into: imported, ["--timezone", "Europe/Berlin"]) == 0)
        }
        let once = try S.snapshot(served)
        #expect(once == (try S.snapshot(imported)))
        #expect(once.contains("|daily") || once.split(separator: "\n").contains { $0.hasPrefix("d|") })
        for b in Self.bodies {
            #expect(try S.send(server, b.path, Data(contentsOf: S.fixtures.appendingPathComponent(b.file)), method: b.method).status == 200)
        }
        #expect(try S.snapshot(served) == once, "a re-sent upload adds nothing")
        #expect(server.stop() == 0)
    }

    /// xDrip+'s entries: mg/dL as sent, the `+0100` of its dateString as the local offset, the
    /// calibration not a reading; the meter reading as blood glucose; the daily row refreshed.
    @Test func xdripEntriesKeepTheirValuesTimesAndDevice() throws {
        let db = S.database()
        let server = try S.server(db)
        let bytes = try Data(contentsOf: S.fixtures.appendingPathComponent("nightscout-uploads/xdrip-entries.json"))
        #expect(try S.send(server, "/api/v1/entries", bytes).status == 200)
        let rows = try S.sqlite(db, "SELECT metric, start, utc_offset, value FROM measurements ORDER BY start")
        #expect(rows == "glucose|1709280000|3600|112.0\nglucose|1709280300|3600|118.0\nglucose|1709280600|3600|131.0\nblood_glucose|1709280720|3600|127.0\n")
        #expect(try S.sqlite(db, "SELECT day, n, min, max FROM daily_summaries WHERE metric = 'glucose'") == "2024-03-01|3|112.0|131.0\n")
        let back = try S.get(server, "/api/v1/entries.json?find[date][$gte]=1709280000000&count=10")
        #expect(back.map { $0["sgv"] as? Int ?? $0["mbg"] as? Int ?? 0 } == [127, 131, 118, 112])
        #expect(back.map { $0["date"] as? Int } == [1709280720000, 1709280600000, 1709280300000, 1709280000000])
        #expect(back[1]["direction"] as? String == "SingleUp")
        #expect(back[1]["device"] as? String == "xDrip-DexcomG6")
        #expect(back[1]["dateString"] as? String == "2024-03-01T08:10:00.000Z")
        // The same upload later (xDrip+ re-sends what it has no answer for) refreshes nothing new.
        #expect(try S.send(server, "/api/v1/entries", bytes).status == 200)
        #expect(try S.sqlite(db, "SELECT count(*) FROM measurements") == "4\n")
        let sgvOnly = try S.get(server, "/api/v1/entries/sgv.json?find[dateString][$gte]=2024-03-01T09:04:00%2B01:00&find[sgv][$gte]=120")
        #expect(sgvOnly.map { $0["sgv"] as? Int } == [131])
        #expect(server.stop() == 0)
    }

    /// AndroidAPS writes BG Checks in mmol/L without units: they land in mg/dL, and are treatments again.
    @Test func mmolSendersLandInMgdl() throws {
        let db = S.database()
        let server = try S.server(db)
        let body = """
            [{"eventType":"BG Check","glucose":5.5,"glucoseType":"Finger","created_at":"2025-11-03T22:00:00.000Z","enteredBy":"AndroidAPS"},
             {"eventType":"BG Check","glucose":7.2,"units":"mmol","created_at":"2025-11-03T22:30:00.000Z","enteredBy":"loop://iPhone"}]
            """
        #expect(try S.send(server, "/api/v1/treatments", Data(body.utf8)).status == 200)
        #expect(try S.sqlite(db, "SELECT value FROM measurements WHERE metric = 'blood_glucose' ORDER BY start") == "99.0\n130.0\n")
        let back = try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2025-11-03T00:00:00Z")
        #expect(back.map { $0["glucose"] as? Double } == [7.2, 5.5])
        #expect(back.map { $0["created_at"] as? String } == ["2025-11-03T22:30:00.000Z", "2025-11-03T22:00:00.000Z"])
        #expect(server.stop() == 0)
    }

    /// Some bad documents: the good ones land, the bad ones are in the quarantine, and the answer
    /// says which.
    @Test func badDocumentsAreQuarantinedAndNamed() throws {
        let db = S.database()
        let server = try S.server(db)
        let body = """
            [{"type":"sgv","sgv":140,"date":1709280000000},{"type":"sgv","sgv":"high","date":1709280300000},
             {"type":"sgv","sgv":150,"date":1709280600000},{"type":"sgv","sgv":3,"date":1709280900000}]
            """
        let r = try S.send(server, "/api/v1/entries", Data(body.utf8))
        #expect(r.status == 200)
        #expect(r.headers["x-quarantined"] == "2")
        let answer = try #require(r.json as? [[String: Any]])
        #expect(answer.map { $0["_id"] != nil } == [true, false, true, false])
        #expect((answer[1]["error"] as? String)?.contains("not a number") == true)
        #expect(try S.sqlite(db, "SELECT count(*) FROM measurements") == "2\n")
        let quarantine = try String(contentsOfFile: String(db.dropLast(7)) + ".quarantine.ndjson", encoding: .utf8)
        #expect(quarantine.split(separator: "\n").count == 2)
        #expect(quarantine.contains(#"\"sgv\":\"high\""#))
        #expect(server.stop() == 0)
    }
}
