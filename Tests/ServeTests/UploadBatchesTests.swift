import Foundation
import Testing

/// Uploads sent at once are imported together while the writer is busy (`UploadBatches`); each
/// request still gets its own documents' answer, its rejected ones at their own positions.
@Suite struct UploadBatchesTests {
    @Test func concurrentUploadsEachGetTheirOwnAnswer() throws {
        let db = NightscoutSupport.database()
        let server = try NightscoutSupport.server(db)
        let start: Int64 = 1_717_200_000_000, requests = 24
        final class Answers: @unchecked Sendable {
            let lock = NSLock()
            var byRequest: [Int: HTTPExchange] = [:]
        }
        let answers = Answers(), base = server.base
        DispatchQueue.concurrentPerform(iterations: requests) { k in
            let docs = (0..<3).map { i -> String in
                let date = start + Int64(k * 3 + i) * 300_000
                // Odd requests carry a glucose that is not a number in their second document.
                let sgv = (k % 2 == 1 && i == 1) ? "\"abc\"" : "\(100 + k)"
                return #"{"type":"sgv","sgv":\#(sgv),"date":\#(date),"device":"xDrip-DexcomG6"}"#
            }
            let r = try? HTTPExchange.send(base + "/api/v1/entries", method: "POST",
                                           headers: ["api-secret": NightscoutSupport.hash, "Content-Type": "application/json"],
                                           body: Data(("[" + docs.joined(separator: ",") + "]").utf8))
            answers.lock.lock(); answers.byRequest[k] = r; answers.lock.unlock()
        }
        for k in 0..<requests {
            let r = try #require(answers.byRequest[k])
            #expect(r.status == 200)
            let docs = try #require(r.json as? [[String: Any]])
            #expect(docs.count == 3)
            for (i, doc) in docs.enumerated() {
                let bad = k % 2 == 1 && i == 1
                #expect((doc["error"] != nil) == bad, "request \(k) document \(i): \(doc)")
                #expect((doc["_id"] != nil) == !bad, "request \(k) document \(i): \(doc)")
            }
            #expect(r.headers["x-quarantined"] == (k % 2 == 1 ? "1" : nil))
        }
        #expect(try NightscoutSupport.sqlite(db, "SELECT count(*) FROM measurements WHERE metric = 'glucose'").trimmingCharacters(in: .whitespacesAndNewlines)
                == String(requests * 3 - requests / 2))
        // Uploads waiting on the writer went in together: fewer import runs than requests.
        let runs = Int(try NightscoutSupport.sqlite(db, "SELECT count(*) FROM imports").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(runs >= 1 && runs < requests, "\(runs) import runs for \(requests) uploads")
        #expect(server.stop() == 0)
    }
}
