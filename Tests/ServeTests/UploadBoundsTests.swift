import Foundation
import Testing

/// What one upload may cost and how its numbers are read: a request of more documents than the
/// limit is refused before it is parsed; `sgv` in mmol/L without `units` is refused, never stored
/// as mg/dL (docs/serve.md, "Security model").
@Suite struct UploadBoundsTests {
    typealias S = NightscoutSupport

    @Test func manyEmptyDocumentsAreRefusedBeforeAnyWork() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let body = Data(("[" + Array(repeating: "{}", count: 300_000).joined(separator: ",") + "]").utf8)
        let started = Date()
        let r = try S.send(server, "/api/v1/entries", body)
        #expect(r.status == 413, "\(r.status) \(r.text.prefix(200))")
        #expect(r.text.contains("documents in one request"))
        #expect(r.body.count < 1_000, "the answer is a reason, not 300,000 echoes")
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(!FileManager.default.fileExists(atPath: db), "nothing imported, nothing quarantined")
    }

    /// A rejected scalar is quarantined as itself; an array inside the array is refused, never read as documents.
    @Test func aRejectedScalarIsQuarantinedAsItselfAndANestedArrayIsRefused() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let body = #"[{"type":"sgv","sgv":120,"date":1709280000000}, 5, {"type":"sgv","sgv":121,"date":1709280300000}, "x", {"type":"sgv","sgv":122,"date":1709280600000}]"#
        let r = try S.send(server, "/api/v1/entries", Data(body.utf8))
        #expect(r.status == 200 && r.headers["x-quarantined"] == "2", "\(r.status) \(r.text)")
        let quarantine = (db as NSString).deletingPathExtension + ".quarantine.ndjson"
        let raws = try String(contentsOfFile: quarantine, encoding: .utf8).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.map { $0["raw"] as? String }
        #expect(raws == ["5", "\"x\""], "\(raws)")
        let nested = #"[[{"type":"sgv","sgv":130,"date":1709281000000}], {"type":"sgv","sgv":131,"date":1709281300000}]"#
        let refused = try S.send(server, "/api/v1/entries", Data(nested.utf8))
        #expect(refused.status == 400 && refused.text.contains("$[0] is an array"), "\(refused.status) \(refused.text)")
        #expect(try S.get(server, "/api/v1/entries.json?count=10&find[date][$gte]=1709000000000").count == 3)
    }

    static let mmolBatch = [4.8, 5.5, 10.4, 12.5, 15.0, 22.0].enumerated().map { i, v in
        #"{"type":"sgv","sgv":\#(v),"date":\#(1_709_280_000_000 + Int64(i) * 300_000),"device":"uploader"}"#
    }

    @Test func mmolSentAsSgvIsRefusedNeverStoredAsMgdl() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        let r = try S.send(server, "/api/v1/entries", Data(("[" + Self.mmolBatch.joined(separator: ",") + "]").utf8))
        #expect(r.status == 422, "\(r.status) \(r.text.prefix(300))")
        #expect(r.text.contains("look like mmol"))
        #expect(!FileManager.default.fileExists(atPath: db), "nothing stored, nothing quarantined as status codes")
        // API v3 alike, one document at a time.
        var aaps = AAPSClient(server: server)
        #expect(try aaps.authorize(AAPSClient.accessToken()).status == 200)
        let one = Data(#"{"type":"sgv","sgv":5.6,"date":1709280000000,"device":"AndroidAPS"}"#.utf8)
        #expect(try aaps.send("/api/v3/entries", method: "POST", body: one).status == 422)
        #expect(!FileManager.default.fileExists(atPath: db))
        // Said in `units`, they are believed and converted; integers from a CGM stay mg/dL.
        let labelled = Self.mmolBatch.map { $0.replacingOccurrences(of: "\"type\"", with: "\"units\":\"mmol\",\"type\"") }
        #expect(try S.send(server, "/api/v1/entries", Data(("[" + labelled.joined(separator: ",") + "]").utf8)).status == 200)
        let values = try S.get(server, "/api/v1/entries.json?count=10&find[date][$gte]=1709000000000").compactMap { ($0["sgv"] as? NSNumber)?.doubleValue }.sorted()
        #expect(values.count == 6 && values.first! > 80 && values.last! > 390, "\(values)")
        let low = #"[{"type":"sgv","sgv":32,"date":1709290000000},{"type":"sgv","sgv":43,"date":1709290300000}]"#
        #expect(try S.send(server, "/api/v1/entries", Data(low.utf8)).status == 200)
    }
}
