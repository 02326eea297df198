import Foundation
import Testing

/// A treatment sent again under its identity replaces the document it names (cgm-remote-monitor
/// upserts treatments on `created_at` and `eventType`): the amount is not identity, and the day's
/// totals follow. Through API v1 (xDrip+ and Loop correct with PUT) and API v3 (AndroidAPS patches).
@Suite struct TreatmentReplacementTests {
    typealias S = NightscoutSupport

    static func insulin(_ db: String) throws -> String {
        try S.sqlite(db, "SELECT count(*), total(insulin_u) FROM events WHERE kind = 'insulin'")
    }

    static func dayTotal(_ db: String) throws -> String {
        try S.sqlite(db, "SELECT day, insulin_u FROM daily_summaries WHERE metric = 'activity'")
    }

    @Test func aBolusResentWithPutReplacesTheFirst() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        func bolus(_ units: Double) -> Data {
            Data(#"{"eventType":"Correction Bolus","insulin":\#(units),"created_at":"2024-03-01T08:00:00.000Z","enteredBy":"xdrip"}"#.utf8)
        }
        let first = try S.send(server, "/api/v1/treatments", bolus(2))
        #expect(first.status == 200, "\(first.text)")
        let id = try #require(((first.json as? [[String: Any]])?.first)?["_id"] as? String)
        let totalBefore = try Self.dayTotal(db)
        var corrected = try #require(try JSONSerialization.jsonObject(with: bolus(5)) as? [String: Any])
        corrected["_id"] = id
        let put = try S.send(server, "/api/v1/treatments", try JSONSerialization.data(withJSONObject: corrected), method: "PUT")
        #expect(put.status == 200, "\(put.text)")
        #expect(try Self.insulin(db) == "1|5.0\n", "one bolus of 5 U, not 2 U and 5 U")
        let docs = try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2024-03-01T00:00:00Z")
        #expect(docs.count == 1 && (docs.first?["insulin"] as? NSNumber)?.doubleValue == 5, "\(docs)")
        let totalAfter = try Self.dayTotal(db)
        #expect(totalBefore == "2024-03-01|2.0\n" && totalAfter == "2024-03-01|5.0\n", "the day's total follows: \(totalBefore) → \(totalAfter)")
        // The same document again changes nothing; a refused correction keeps the dose.
        #expect(try S.send(server, "/api/v1/treatments", try JSONSerialization.data(withJSONObject: corrected), method: "PUT").status == 200)
        #expect(try Self.insulin(db) == "1|5.0\n")
        let refused = #"{"eventType":"Correction Bolus","insulin":-3,"created_at":"2024-03-01T08:00:00.000Z","enteredBy":"xdrip"}"#
        #expect(try S.send(server, "/api/v1/treatments", Data(refused.utf8), method: "PUT").headers["x-quarantined"] == "1")
        #expect(try Self.insulin(db) == "1|5.0\n", "a rejected correction leaves the dose it named")
    }

    @Test func aV3PatchThenPutLeavesOneDoseAndReadsTheLastWrite() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        var aaps = AAPSClient(server: server)
        #expect(try aaps.authorize(AAPSClient.accessToken()).status == 200)
        for file in ["aaps-v3-bolus.json", "aaps-v3-carbs.json"] {
            #expect(try aaps.send("/api/v3/treatments", method: "POST", body: AAPSClient.fixture(file)).status == 201)
        }
        let bolus = try #require(try JSONSerialization.jsonObject(with: AAPSClient.fixture("aaps-v3-bolus.json")) as? [String: Any])
        let list = try aaps.documents("/api/v3/treatments?created_at$gt=2024-03-01T00:00:00.000Z&limit=50")
        let id = try #require(list.first { ($0["insulin"] as? NSNumber)?.doubleValue == 4.5 }?["identifier"] as? String)
        let patch = #"{"eventType":"Meal Bolus","insulin":6.0,"identifier":"\#(id)","app":"AAPS"}"#
        #expect(try aaps.send("/api/v3/treatments/" + id, method: "PATCH", body: Data(patch.utf8)).status == 200)
        var put = bolus
        put["insulin"] = 7.0
        #expect(try aaps.send("/api/v3/treatments/" + id, method: "PUT", body: try JSONSerialization.data(withJSONObject: put)).status == 200)
        #expect(try Self.insulin(db) == "1|7.0\n", "one dose, the last written")
        #expect(try Self.dayTotal(db) == "2024-03-01|7.0\n", "the day's total follows")
        let read = try #require(try aaps.result("/api/v3/treatments/" + id) as? [String: Any])
        #expect((read["insulin"] as? NSNumber)?.doubleValue == 7)
        #expect(try S.sqlite(db, "SELECT count(*), total(carbs_g) FROM events WHERE kind = 'meal'") == "1|45.0\n", "the carbs of the same instant stay")
    }
}
