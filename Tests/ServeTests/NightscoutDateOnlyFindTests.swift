import HTTPTypes
@testable import HealthPipeServe
import Hummingbird
import Testing

/// A date without a time in a `find` (issue 39: `find[created_at][$gte]=2000-01-01` was a 400),
/// read as cgm-remote-monitor's query builder reads it (`lib/server/query.js`): `created_at`, the
/// treatments' and device statuses' date field, becomes the instant of UTC midnight; text fields
/// (`dateString`, `sysTime`) compare as text, where every time of that day sorts after the date.
/// In process: the query is parsed as the route parses it.
@Suite struct NightscoutDateOnlyFindTests {
    static let march1 = Int64(1_709_251_200)  // 2024-03-01T00:00:00Z

    static func find(_ query: String) throws -> NightscoutFind {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/api/v1/treatments?" + query),
                              body: RequestBody(buffer: ByteBuffer()))
        return try NightscoutFind(request, defaultCount: 10, now: march1 + 86_400 * 10)
    }

    @Test func createdAtReadsADateAsUTCMidnight() throws {
        let gte = try Self.find("find[created_at][$gte]=2024-03-01")
        #expect((gte.fromUTC, gte.toUTC) == (Self.march1, .max))
        #expect(try Self.find("find[created_at][$gte]=2000-01-01").fromUTC == 946_684_800)
        // As instants (a stored second stands for its milliseconds, as for any instant): $lte keeps midnight.
        let window = try Self.find("find[created_at][$gt]=2024-03-01&find[created_at][$lte]=2024-03-02")
        #expect((window.fromUTC, window.toUTC) == (Self.march1, Self.march1 + 86_400 + 1))
        #expect(try Self.find("find[created_at][$gte]=2024-03").fromUTC == Self.march1, "a month: its first day")
    }

    @Test func textFieldsCompareADateAsText() throws {
        // "2024-03-01T00:00:00.000Z" > "2024-03-01": $gt takes the whole day, $lte none of it.
        let gt = try Self.find("find[dateString][$gt]=2024-03-01")
        #expect((gt.fromUTC, gt.toUTC) == (Self.march1, .max))
        let lte = try Self.find("find[dateString][$lte]=2024-03-01")
        #expect(lte.toUTC == Self.march1)
        let eq = try Self.find("find[sysTime]=2024-03-01")
        #expect(eq.fromUTC > eq.toUTC, "no stored text equals a bare date")
    }

    @Test func whatIsNotADateIsStillRefused() throws {
        for bad in ["2024-13-01", "2024-02-30", "2024-3-1", "20240301x", "yesterday"] {
            #expect(throws: HTTPError.self, "\(bad)") { try Self.find("find[created_at][$gte]=" + bad) }
        }
    }
}
