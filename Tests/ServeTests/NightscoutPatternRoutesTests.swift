import Foundation
@testable import HealthPipeServe
import Testing

/// Nightscout's pattern and echo routes (issue 39: `/api/v1/times/…`, `/api/v1/slice/…`, `/api/v1/echo/…` answered 404):
/// the path expanded as bash expands braces and read as `lib/api/entries`' `prep_patterns` reads it,
/// over the `dateString` the reads answer, with no 4-day window.
@Suite struct NightscoutPatternRoutesTests {
    typealias S = NightscoutSupport

    @Test func bracesExpandAsBashExpandsThem() throws {
        #expect(try BraceExpansion.expand("T{13..18}:{00..15}").count == 6 * 16)
        #expect(try BraceExpansion.expand("T{13..14}:{00..01}") == ["T13:00", "T13:01", "T14:00", "T14:01"])
        #expect(try BraceExpansion.expand("20{14..15}-04") == ["2014-04", "2015-04"])
        #expect(try BraceExpansion.expand("{a,b{1,2}}c") == ["ac", "b1c", "b2c"])
        #expect(try BraceExpansion.expand("{0..30..10}") == ["0", "10", "20", "30"])
        #expect(try BraceExpansion.expand("{x}y{}") == ["{x}y{}"], "neither a list nor a range: as written")
        #expect(throws: BraceExpansion.TooMany.self) { try BraceExpansion.expand("{0..9999}{0..9}") }
    }

    /// Nightscout's own examples (the comments of `prep_patterns`): one prefix starts the field, several lead each alternative.
    @Test func patternsAreNightscouts() throws {
        let one = try NightscoutTimePatterns(prefix: "2015-04", regex: "T{13..18}:{00..15}", field: "dateString")
        #expect(one.patterns.count == 96 && one.patterns.first == ".*T13:00")
        #expect(one.matches("2015-04-02T13:05:00.000Z") && !one.matches("2015-05-02T13:05:00.000Z") && !one.matches("2015-04-02T12:05:00.000Z"))
        let several = try NightscoutTimePatterns(prefix: "20{14..15}-04", regex: "T{13..18}:{00..15}", field: "dateString")
        #expect(several.patterns.first == "^2014-04.*T13:00" && several.patterns.count == 2 * 96)
        #expect(several.matches("2014-04-30T18:15:00.000Z") && !several.matches("2016-04-30T18:15:00.000Z"))
        #expect(try NightscoutTimePatterns(prefix: nil, regex: nil, field: "dateString").patterns == [""])
        #expect(one.window.map { [$0.from, $0.to] } == [1_427_846_400, 1_430_438_400], "April 2015 is all that is read")
        #expect(several.window == nil)
    }

    @Test func timesAndSliceAnswerTheEntriesTheirPatternsMatch() throws {
        let db = S.database()
        let server = try S.server(db)
        defer { _ = server.stop() }
        #expect(try S.send(server, "/api/v1/entries", Data(contentsOf: S.fixtures.appendingPathComponent("nightscout-uploads/xdrip-entries.json"))).status == 200)
        // Readings at 08:00, 08:05, 08:10 (sgv) and 08:12 (mbg) UTC on 2024-03-01: older than 4 days, still found.
        let times = try S.get(server, "/api/v1/times/2024-03/T08:%7B05..10%7D.json")
        #expect(times.map { $0["sgv"] as? Int } == [131, 118])
        #expect(try S.get(server, "/api/v1/times/2024-03/T08:%7B05..10%7D?count=1").count == 1)
        #expect(try S.get(server, "/api/v1/times/20%7B23..24%7D-03/T08:1?find[sgv][$gte]=120").map { $0["sgv"] as? Int } == [131])
        #expect(try S.get(server, "/api/v1/slice/entries/dateString/mbg/2024.json").map { $0["mbg"] as? Int } == [127])
        let csv = try HTTPExchange.send(server.base + "/api/v1/times/2024-03-01/T08:0.csv", headers: ["api-secret": S.hash])
        #expect(csv.text == "\"2024-03-01T08:05:00.000Z\",1709280300000,118,\"FortyFiveUp\",\"xDrip-DexcomG6\"\r\n"
                + "\"2024-03-01T08:00:00.000Z\",1709280000000,112,\"Flat\",\"xDrip-DexcomG6\"", "\(csv.text)")
        let echo = try HTTPExchange.send(server.base + "/api/v1/times/echo/2024-03/T08:%7B05..06%7D", headers: ["api-secret": S.hash])
        let echoed = try #require(echo.json as? [String: Any], "\(echo.text)")
        #expect(echoed["pattern"] as? [String] == [".*T08:05", ".*T08:06"])
        #expect(try HTTPExchange.send(server.base + "/api/v1/times/%7B0..99999%7D", headers: ["api-secret": S.hash]).status == 400)
    }

    /// `/api/v1/echo/…` (issue 39: a 404) answers the query Nightscout builds (`lib/server/query.js`).
    @Test func echoAnswersTheQueryNightscoutBuilds() throws {
        let server = try S.server(S.database())
        defer { _ = server.stop() }
        func echo(_ path: String) throws -> [String: Any] {
            let r = try HTTPExchange.send(server.base + path, headers: ["api-secret": S.hash])
            guard r.status == 200, let object = r.json as? [String: Any] else { throw ServeTestError("\(path): \(r.status) \(r.text)") }
            return object
        }
        let sgv = try echo("/api/v1/echo/entries/sgv?find[sgv][$gte]=120")
        let query = try #require(sgv["query"] as? [String: Any])
        #expect((query["sgv"] as? [String: Any])?["$gte"] as? Int == 120 && query["type"] as? String == "sgv")
        let since = try #require((query["date"] as? [String: Any])?["$gte"] as? Int64)
        #expect(abs(since - (Int64(Date().timeIntervalSince1970 * 1000) - 4 * 86_400_000)) < 60_000, "the last 4 days, in ms")
        #expect(((sgv["input"] as? [String: Any])?["find"] as? [String: Any])?["type"] as? String == "sgv")
        #expect(sgv["params"] as? [String: String] == ["echo": "entries", "model": "sgv"] && sgv["storage"] as? String == "entries")

        let treatments = try #require(try echo("/api/v1/echo/treatments?find[eventType]=/Bolus/&find[created_at][$gte]=2024-03-01&find[insulin][$gt]=2.5")["query"] as? [String: Any])
        #expect((treatments["eventType"] as? [String: Any])?.isEmpty == true, "a RegExp, which JSON writes as {}")
        #expect((treatments["created_at"] as? [String: Any])?["$gte"] as? String == "2024-03-01T00:00:00.000Z")
        #expect((treatments["insulin"] as? [String: Any])?["$gt"] as? Int == 2, "parseInt")
        let byID = try echo("/api/v1/echo/entries/sgv/65e1a0000000000000000000")
        #expect(byID["query"] as? [String: String] == ["_id": "65e1a0000000000000000000"])
    }
}
