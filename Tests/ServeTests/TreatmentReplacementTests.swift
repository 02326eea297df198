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

    /// One batch carrying a treatment twice (an array, or requests merged while the writer was busy)
    /// stores the last of them, as if each had been sent after the one before.
    @Test func anArrayCarryingOneTreatmentTwiceStoresTheLast() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        func bolus(_ units: Double) -> String {
            #"{"_id":"65e18a80a1b2c3d4e5f60718","eventType":"Correction Bolus","insulin":\#(units),"created_at":"2024-03-01T08:00:00.000Z","enteredBy":"xdrip"}"#
        }
        let note = #"{"eventType":"Note","notes":"between","created_at":"2024-03-01T09:00:00.000Z"}"#
        let sent = try S.send(server, "/api/v1/treatments", Data("[\(bolus(2)),\(note),\(bolus(5))]".utf8))
        #expect(sent.status == 200, "\(sent.text)")
        let answer = try #require(sent.json as? [[String: Any]])
        #expect(answer.count == 3 && answer.allSatisfy { $0["_id"] != nil && $0["error"] == nil }, "\(answer)")
        #expect(try Self.insulin(db) == "1|5.0\n", "one bolus of 5 U, the last sent")
        let docs = try S.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2024-03-01T00:00:00Z")
        let boluses = docs.filter { $0["eventType"] as? String == "Correction Bolus" }
        #expect(docs.count == 2 && boluses.count == 1 && (boluses.first?["insulin"] as? NSNumber)?.doubleValue == 5, "\(docs)")
        #expect(try Self.dayTotal(db) == "2024-03-01|5.0\n")
        #expect(try S.sqlite(db, "SELECT count(*) FROM events WHERE kind = 'note'") == "1\n", "the note between them is stored once")
        // A refused last document leaves the one before it (2 U, then -3 U: 2 U stays).
        let refused = try S.send(server, "/api/v1/treatments", Data("[\(bolus(2)),\(bolus(-3))]".utf8))
        #expect(refused.headers["x-quarantined"] == "1")
        let refusedAnswer = try #require(refused.json as? [[String: Any]])
        #expect(refusedAnswer.count == 2 && refusedAnswer[0]["error"] == nil && refusedAnswer[1]["error"] != nil, "\(refusedAnswer)")
        #expect(try Self.insulin(db) == "1|2.0\n", "the rejected last leaves the 2 U before it")
        #expect(try Self.dayTotal(db) == "2024-03-01|2.0\n")
        // 4 U, 3 U, then a refused one: 3 U stands, not 4 U and 3 U.
        #expect(try S.send(server, "/api/v1/treatments", Data("[\(bolus(4)),\(bolus(3)),\(bolus(-1))]".utf8)).headers["x-quarantined"] == "1")
        #expect(try Self.insulin(db) == "1|3.0\n")
    }

    /// A hostile batch repeating one treatment costs three imports at most, not one per copy.
    @Test func oneTreatmentAThousandTimesIsImportedAtMostThreeTimes() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let docs = (1...1_000).map { k in
            #"{"eventType":"Correction Bolus","insulin":\#(k % 20 + 1),"created_at":"2024-03-01T08:00:00.000Z"}"#
        }
        #expect(try S.send(server, "/api/v1/treatments", Data(("[" + docs.joined(separator: ",") + "]").utf8)).status == 200)
        #expect(try Self.insulin(db) == "1|1.0\n", "the last sent: 1000 % 20 + 1 U")
        #expect(try S.sqlite(db, "SELECT total(runs) FROM imports") == "2.0\n", "two imports: all but the last, then the last")
    }

    /// PUTs of one treatment sent at once, merged into one batch while the writer is busy, leave one dose.
    @Test func concurrentPutsOfOneTreatmentLeaveOneDose() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let bolus = Self.loopBolus
        #expect(try S.send(server, "/api/v1/treatments", bolus(1)).status == 200)
        let base = server.base, headers = ["api-secret": S.hash, "Content-Type": "application/json"]
        final class Statuses: @unchecked Sendable {
            let lock = NSLock()
            var all: [Int] = []
        }
        let statuses = Statuses()
        // A thread each (not concurrentPerform, which runs as many at once as there are cores): the
        // PUTs wait on the writer together and go in as one batch.
        let sent = DispatchGroup()
        for k in 0..<12 {
            sent.enter()
            Thread {
                let status = (try? HTTPExchange.send(base + "/api/v1/treatments", method: "PUT", headers: headers, body: bolus(2 + k)))?.status ?? 0
                statuses.lock.lock(); statuses.all.append(status); statuses.lock.unlock()
                sent.leave()
            }.start()
        }
        sent.wait()
        #expect(statuses.all.count == 12 && statuses.all.allSatisfy { $0 == 200 }, "\(statuses.all)")
        let stored = try Self.insulin(db)
        #expect(stored.hasPrefix("1|"), "one dose, not one per PUT: \(stored)")
        let units = stored.dropFirst(2).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.dayTotal(db) == "2024-03-01|\(units)\n", "the day's total is the one dose")
    }

    @Sendable static func loopBolus(_ units: Int) -> Data {
        Data(#"{"eventType":"Correction Bolus","insulin":\#(units),"created_at":"2024-03-01T08:00:00.000Z","enteredBy":"loop"}"#.utf8)
    }
}
