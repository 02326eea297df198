import Foundation
@testable import HealthPipeServe
import Testing

/// The routes watch faces, widgets and followers read (`/pebble`, `/api/v2/properties`, the entries'
/// text formats, `/api/v1/count`) answer as Nightscout does, from what was uploaded — on the old server each was a 404.
@Suite struct NightscoutWatchRoutesTests {
    typealias S = NightscoutSupport

    static let values = [100, 107, 114, 121, 128, 135]
    static let directions = ["Flat", "FortyFiveUp", "SingleUp", "Flat", "FortyFiveDown", "SingleDown"]

    /// A server holding six CGM readings five minutes apart, the newest a minute or two old, and an uploader's battery.
    static func serverWithReadings() throws -> (ServeProcess, times: [Int64]) {
        let server = try S.server(S.database())
        let newest = (Int64(Date().timeIntervalSince1970) / 60 - 1) * 60
        let times = (0..<6).map { newest - Int64(5 - $0) * 300 }
        let entries: [[String: Any]] = (0..<6).map { i in
            ["type": "sgv", "sgv": values[i], "date": times[i] * 1000, "direction": directions[i], "device": "xDrip-DexcomG6"]
        }
        #expect(try S.send(server, "/api/v1/entries", JSONSerialization.data(withJSONObject: entries)).status == 200)
        let status: [String: Any] = ["device": "xDrip-phone", "created_at": NightscoutTime.iso(newest), "uploader": ["battery": 76]]
        #expect(try S.send(server, "/api/v1/devicestatus", JSONSerialization.data(withJSONObject: status)).status == 200)
        let loop: [String: Any] = ["device": "loop://iPhone", "created_at": NightscoutTime.iso(newest - 60),
                                   "loop": ["iob": ["iob": 1.5, "timestamp": NightscoutTime.iso(newest - 60)]]]
        #expect(try S.send(server, "/api/v1/devicestatus", JSONSerialization.data(withJSONObject: loop)).status == 200)
        return (server, times)
    }

    static func object(_ server: ServeProcess, _ path: String, headers: [String: String] = ["api-secret": S.hash]) throws -> [String: Any] {
        let r = try HTTPExchange.send(server.base + path, headers: headers)
        guard r.status == 200, let doc = r.json as? [String: Any] else { throw ServeTestError("GET \(path): \(r.status) \(r.text)") }
        return doc
    }

    static func mmol(_ mgdl: Int) -> Double { (Double(mgdl) / 18.01559 * 10).rounded() / 10 }

    @Test func pebbleAnswersTheNewestReadingsWithDeltaAndBattery() throws {
        let (server, times) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        let doc = try Self.object(server, "/pebble?count=3")
        let bgs = try #require(doc["bgs"] as? [[String: Any]])
        #expect(bgs.count == 3)
        for (k, bg) in bgs.enumerated() {
            let i = 5 - k
            #expect(bg["sgv"] as? String == String(Self.values[i]), "sgv is a text in Nightscout's pebble")
            #expect(bg["direction"] as? String == Self.directions[i])
            #expect((bg["datetime"] as? NSNumber)?.int64Value == times[i] * 1000)
        }
        #expect(bgs.map { ($0["trend"] as? NSNumber)?.intValue } == [6, 5, 4], "SingleDown, FortyFiveDown, Flat")
        #expect((bgs[0]["bgdelta"] as? NSNumber)?.intValue == Self.values[5] - Self.values[4])
        #expect(bgs[0]["battery"] as? String == "76")
        #expect(bgs[0]["iob"] as? String == "1.50", "the loop's IOB, toFixed(2)")
        #expect(bgs[1]["bgdelta"] == nil, "only the first reading carries the extras")
        #expect((doc["cals"] as? [Any])?.isEmpty == true)
        let now = try #require(((doc["status"] as? [[String: Any]])?.first?["now"] as? NSNumber)?.int64Value)
        #expect(abs(now - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        // Without count: one reading (`parseInt(count) || 1`).
        #expect((try Self.object(server, "/pebble")["bgs"] as? [Any])?.count == 1)
        #expect((try Self.object(server, "/pebble?count=0")["bgs"] as? [Any])?.count == 1)
    }

    /// FloatingGlucose's recorded requests (Tests/Fixtures/nightscout-clients), read as it reads them.
    @Test func floatingGlucoseReadsItsWidget() throws {
        let (server, times) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: S.fixtures.appendingPathComponent("nightscout-clients/floatingglucose-pebble.json")))
        let requests = try #require((fixture as? [String: Any])?["requests"] as? [[String: Any]])
        #expect(requests.count == 2)
        for request in requests {
            let path = try #require(request["path"] as? String)
            let mmol = path.contains("units=mmol")
            let bgs = try #require(try Self.object(server, path)["bgs"] as? [[String: Any]])
            #expect(bgs.count == (path.contains("count=2") ? 2 : 1), "\(path)")
            let sgvText = try #require(bgs[0]["sgv"] as? String, "\(path): sgv is a text")
            let sgv = try #require(Double(sgvText), "\(path): sgv parses as a number")
            #expect(sgv == (mmol ? Self.mmol(Self.values[5]) : Double(Self.values[5])), "\(path)")
            #expect((bgs[0]["datetime"] as? NSNumber)?.int64Value == times[5] * 1000)
            let delta = bgs[0]["bgdelta"].map { "\($0)" }.flatMap { Double($0) }
            let expected = mmol ? ((Self.mmol(Self.values[5]) - Self.mmol(Self.values[4])) * 10).rounded() / 10 : Double(Self.values[5] - Self.values[4])
            #expect(delta == expected, "\(path): bgdelta \(String(describing: bgs[0]["bgdelta"]))")
            if mmol { #expect(bgs[0]["bgdelta"] is String, "in mmol/L Nightscout sends toFixed(1)") }
        }
    }

    @Test func propertiesAreComputedFromTheStoredReadings() throws {
        let (server, times) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        let all = try Self.object(server, "/api/v2/properties")
        #expect(Set(all.keys) == ["bgnow", "delta", "direction", "buckets", "iob"])
        let iob = try #require(all["iob"] as? [String: Any])
        #expect((iob["iob"] as? NSNumber)?.doubleValue == 1.5)
        #expect(iob["source"] as? String == "Loop")
        #expect(iob["display"] as? String == "1.50")
        #expect(iob["displayLine"] as? String == "IOB: 1.50U")
        let bgnow = try #require(all["bgnow"] as? [String: Any])
        #expect((bgnow["last"] as? NSNumber)?.intValue == Self.values[5], "bgnow is the latest stored reading")
        #expect((bgnow["mean"] as? NSNumber)?.doubleValue == Double(Self.values[5]))
        #expect((bgnow["mills"] as? NSNumber)?.int64Value == times[5] * 1000)
        #expect(((bgnow["sgvs"] as? [[String: Any]])?.first?["mgdl"] as? NSNumber)?.intValue == Self.values[5])
        let delta = try #require(all["delta"] as? [String: Any])
        #expect((delta["mgdl"] as? NSNumber)?.intValue == Self.values[5] - Self.values[4])
        #expect(delta["display"] as? String == "+\(Self.values[5] - Self.values[4])")
        #expect((delta["elapsedMins"] as? NSNumber)?.doubleValue == 5)
        #expect(delta["interpolated"] as? Bool == false)
        #expect(((delta["previous"] as? [String: Any])?["last"] as? NSNumber)?.intValue == Self.values[4])
        let direction = try #require(all["direction"] as? [String: Any])
        #expect(direction["value"] as? String == "SingleDown")
        #expect(direction["label"] as? String == "↓")
        #expect(direction["entity"] as? String == "&#8595;")
        let buckets = try #require(all["buckets"] as? [[String: Any]])
        #expect(buckets.map { ($0["last"] as? NSNumber)?.intValue } == [135, 128, 121, 114])
        #expect((buckets[0]["fromMills"] as? NSNumber)?.int64Value == times[5] * 1000 - 150_000)
        // A selection answers just those (unknown names are left out, as Nightscout's pick does).
        let picked = try Self.object(server, "/api/v2/properties/bgnow,delta,cob")
        #expect(Set(picked.keys) == ["bgnow", "delta"])
    }

    @Test func entriesInNightscoutsTextFormats() throws {
        let (server, times) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        for (ext, separator, type) in [("csv", ",", "text/csv"), ("tsv", "\t", "text/tab-separated-values"), ("txt", "\t", "text/plain")] {
            let r = try HTTPExchange.send(server.base + "/api/v1/entries.\(ext)?count=2", headers: ["api-secret": S.hash])
            #expect(r.status == 200, "\(ext): \(r.text)")
            #expect(r.headers["content-type"]?.hasPrefix(type) == true, "\(ext): \(r.headers)")
            let lines = [5, 4].map { i in
                ["\"\(NightscoutTime.iso(times[i]))\"", "\(times[i] * 1000)", "\(Self.values[i])", "\"\(Self.directions[i])\"", "\"xDrip-DexcomG6\""]
                    .joined(separator: separator)
            }
            #expect(r.text == lines.joined(separator: "\r\n"), "\(ext)")
        }
        let sgv = try HTTPExchange.send(server.base + "/api/v1/entries/sgv.csv?count=1", headers: ["api-secret": S.hash])
        #expect(sgv.text.hasPrefix("\"\(NightscoutTime.iso(times[5]))\",\(times[5] * 1000),\(Self.values[5]),"), "\(sgv.text)")
    }

    @Test func countAnswersAsNightscoutsAggregate() throws {
        let (server, _) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        func count(_ path: String) throws -> Any? {
            let r = try HTTPExchange.send(server.base + path, headers: ["api-secret": S.hash])
            #expect(r.status == 200, "\(path): \(r.status) \(r.text)")
            return r.json
        }
        let all = try #require(try count("/api/v1/count/entries/where") as? [[String: Any]])
        #expect((all.first?["count"] as? NSNumber)?.intValue == Self.values.count)
        #expect(all.first?["_id"] is NSNull)
        let high = try #require(try count("/api/v1/count/entries/where?find[sgv][$gte]=120") as? [[String: Any]])
        #expect((high.first?["count"] as? NSNumber)?.intValue == Self.values.filter { $0 >= 120 }.count)
        #expect(((try count("/api/v1/count/devicestatus/where") as? [[String: Any]])?.first?["count"] as? NSNumber)?.intValue == 2)
        #expect((try count("/api/v1/count/treatments/where") as? [Any])?.isEmpty == true, "nothing matched: MongoDB's aggregate answers []")
    }

    /// Each is a read: a read-only token reads it, no credentials on a server with a secret do not.
    @Test func theRoutesAreReadsAsNightscoutGrantsThem() throws {
        let (server, _) = try Self.serverWithReadings()
        defer { _ = server.stop() }
        let reader = try APISecret(S.secret).token(name: "watch", role: .read)
        for path in ["/pebble", "/api/v2/properties", "/api/v2/properties/bgnow", "/api/v1/entries.csv", "/api/v1/count/entries/where"] {
            #expect(try HTTPExchange.send(server.base + path + "?token=" + reader).status == 200, "\(path) with a read token")
            #expect(try HTTPExchange.send(server.base + path).status == 401, "\(path) without credentials")
        }
    }

    @Test func anEmptyStoreAnswersAsNightscoutDoesWithoutReadings() throws {
        let server = try S.server(S.database())
        defer { _ = server.stop() }
        let pebble = try Self.object(server, "/pebble")
        #expect((pebble["bgs"] as? [Any])?.isEmpty == true)
        #expect(try Self.object(server, "/api/v2/properties").isEmpty)
        let csv = try HTTPExchange.send(server.base + "/api/v1/entries.csv", headers: ["api-secret": S.hash])
        #expect(csv.status == 200 && csv.text.isEmpty)
    }
}
