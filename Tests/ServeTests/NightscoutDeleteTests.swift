import Foundation
import Testing

/// Deleting as Nightscout's clients delete (issue 39; cgm-remote-monitor `lib/api/entries`,
/// `lib/api/treatments`, `lib/api3/generic/delete`): the document's rows leave the store and every
/// derived row (the day is refreshed), and the deletion is remembered — the same upload or file
/// again leaves it deleted; `import --restore-deleted` brings it back.
@Suite struct NightscoutDeleteTests {
    typealias S = NightscoutSupport
    static let entries = S.fixtures.appendingPathComponent("nightscout-uploads/xdrip-entries.json")
    static let treatment = S.fixtures.appendingPathComponent("nightscout-uploads/xdrip-treatment.json")
    static let window = "find[date][$gte]=1709280000000"

    static func delete(_ server: ServeProcess, _ path: String) throws -> (status: Int, deleted: Int?) {
        let r = try S.send(server, path, Data(), method: "DELETE", headers: ["api-secret": S.hash])
        let answer = r.json as? [String: Any]
        #expect(r.status != 200 || answer?["acknowledged"] as? Bool == true, "\(path): \(r.text)")
        return (r.status, answer?["deletedCount"] as? Int)
    }

    static func sgvs(_ server: ServeProcess) throws -> [Int] {
        try S.get(server, "/api/v1/entries/sgv.json?" + window).map { $0["sgv"] as? Int ?? 0 }
    }

    @Test func v1DeletesLeaveTheStoreAndTheDayAndStayDeleted() throws {
        let db = S.database()
        var server = try S.server(db)
        #expect(try S.send(server, "/api/v1/entries", Data(contentsOf: Self.entries)).status == 200)
        #expect(try S.send(server, "/api/v1/treatments", Data(contentsOf: Self.treatment), method: "PUT").status == 200)
        let dayTotals = "SELECT carbs_g, insulin_u FROM daily_summaries WHERE metric = 'glucose'"
        #expect(try S.sqlite(db, dayTotals) == "45.0|4.5\n")

        // By id: the newest reading (131 at 09:10), then the day's summary without it.
        let newest = try #require(try S.get(server, "/api/v1/entries/sgv.json?" + Self.window).first?["_id"] as? String)
        #expect(try Self.delete(server, "/api/v1/entries/" + newest) == (200, 1))
        #expect(try Self.sgvs(server) == [118, 112])
        #expect(try S.sqlite(db, "SELECT day, n, min, max FROM daily_summaries WHERE metric = 'glucose'") == "2024-03-01|2|112.0|118.0\n")
        #expect(try Self.delete(server, "/api/v1/entries/" + newest) == (200, 0), "nothing left to delete")
        // By a query, as Nightscout's `DELETE /entries/<type>?find…`: the readings under 115 only.
        #expect(try Self.delete(server, "/api/v1/entries/sgv?find[sgv][$lt]=115&" + Self.window) == (200, 1))
        #expect(try Self.sgvs(server) == [118])

        // A treatment by its _id: its bolus and meal go, and the day's carbs and insulin with them.
        // A date without a time, as Nightscout reads it (NightscoutDateOnlyFindTests).
        let treatments = try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2024-03-01")
        let treatmentID = try #require(treatments.first?["_id"] as? String)
        #expect(try Self.delete(server, "/api/v1/treatments/" + treatmentID) == (200, 1))
        #expect(try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2024-03-01T00:00:00Z").isEmpty)
        #expect(try S.sqlite(db, "SELECT count(*) FROM events") == "0\n")
        #expect(try S.sqlite(db, dayTotals) == "0.0|0.0\n")

        // The same uploads again, as an uploader re-sends what it has: still deleted.
        #expect(try S.send(server, "/api/v1/entries", Data(contentsOf: Self.entries)).status == 200)
        #expect(try S.send(server, "/api/v1/treatments", Data(contentsOf: Self.treatment), method: "PUT").status == 200)
        #expect(try Self.sgvs(server) == [118])
        #expect(try S.sqlite(db, "SELECT count(*) FROM events") == "0\n")
        #expect(try S.sqlite(db, "SELECT day, n FROM daily_summaries WHERE metric = 'glucose'") == "2024-03-01|1\n")
        #expect(server.stop() == 0)

        // The file imported again: still deleted; with --restore-deleted: back, and the day with them.
        #expect(try S.importFile(Self.entries.path, into: db) == 0)
        #expect(try S.sqlite(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose'") == "1\n")
        #expect(try S.importFile(Self.entries.path, into: db, ["--restore-deleted"]) == 0)
        #expect(try S.sqlite(db, "SELECT day, n, min, max FROM daily_summaries WHERE metric = 'glucose'") == "2024-03-01|3|112.0|131.0\n")
        #expect(try S.sqlite(db, "SELECT row_table, count(*) FROM deleted_rows GROUP BY row_table") == "events|2\n", "the treatment's stay remembered")
        server = try S.server(db)
        #expect(try Self.sgvs(server) == [131, 118, 112])
        #expect(server.stop() == 0)
    }

    /// API v3 marks a document deleted: gone from searches, `410` when read, in the history with
    /// `isValid: false` after its deletion — what AndroidAPS's sync reads to drop it too.
    @Test func v3DeleteMarksTheDocumentDeleted() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        var aaps = AAPSClient(server: server)
        #expect(try aaps.authorize(AAPSClient.accessToken()).status == 200)
        let created = try aaps.send("/api/v3/treatments", method: "POST", body: AAPSClient.fixture("aaps-v3-bolus.json"))
        let identifier = try #require((created.json as? [String: Any])?["identifier"] as? String, "\(created.text)")
        let before = Int64(Date().timeIntervalSince1970 * 1000) - 1000

        let deleted = try aaps.send("/api/v3/treatments/" + identifier, method: "DELETE")
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect((deleted.json as? [String: Any])?["status"] as? Int == 200)
        #expect(try aaps.send("/api/v3/treatments/" + identifier).status == 410)
        #expect(try aaps.documents("/api/v3/treatments?date$gte=1709200000000").isEmpty)
        #expect(try S.sqlite(db, "SELECT count(*) FROM events") == "0\n")
        let history = try aaps.documents("/api/v3/treatments/history/1709200000000")
        let gone = try #require(history.first { $0["identifier"] as? String == identifier }, "\(history)")
        #expect(gone["isValid"] as? Bool == false)
        #expect(gone["insulin"] as? Double == 4.5 && gone["eventType"] as? String == "Meal Bolus")
        #expect(((gone["srvModified"] as? NSNumber)?.int64Value ?? 0) >= before)
        #expect(try aaps.documents("/api/v3/treatments/history/\(Int64(Date().timeIntervalSince1970 * 1000) + 5000)").isEmpty)

        // Sent again, it stays deleted; an identifier of nothing is a 404.
        _ = try aaps.send("/api/v3/treatments", method: "POST", body: AAPSClient.fixture("aaps-v3-bolus.json"))
        #expect(try aaps.send("/api/v3/treatments/" + identifier).status == 410)
        #expect(try aaps.send("/api/v3/treatments/" + identifier, method: "DELETE").status == 200)
        #expect(try aaps.send("/api/v3/treatments/65e1a0000000000000000000", method: "DELETE").status == 404)
    }
}
