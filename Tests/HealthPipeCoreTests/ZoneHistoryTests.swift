import Foundation
import Testing
@testable import HealthPipeCore

/// A person's zone over time: a time typed without an offset is read in the zone in effect at the
/// instant it names; "now" and "today" follow the zone of now; nobody's zone is the fallback.
@Suite struct ZoneHistoryTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// Los Angeles since always, Berlin from 2024-06-01 00:00 Berlin time (2024-05-31T22:00Z).
    static let moved = ZoneHistory(periods: [.init(from: 1_717_192_800, zone: "Europe/Berlin"),
                                             .init(from: ZoneHistory.always, zone: "America/Los_Angeles")], fallback: utc)

    @Test func aTypedTimeIsReadInTheZoneOfItsInstant() throws {
        let now: Int64 = 1_735_689_600  // 2025-01-01T00:00Z
        let before = try #require(Self.moved.parse("2024-05-20 13:30", now: now))
        #expect(before.utc == 1_716_237_000 && before.offset == -25_200)
        let after = try #require(Self.moved.parse("2024-06-10 13:30", now: now))
        #expect(after.utc == 1_718_019_000 && after.offset == 7_200)
        // An offset wins (west of Greenwich too: the CLI hands entries on as `…-08:00`); a time before
        // every period is in the first zone.
        #expect(LocalTimeText.hasOffset("2009-12-14T13:05:04-08:00") && LocalTimeText.hasOffset("2009-12-14T13:05:04-0800"))
        #expect(!LocalTimeText.hasOffset("2009-12-14 13:05:04") && !LocalTimeText.hasOffset("2009-12-14T13:05"))
        #expect(Self.moved.parse("2024-06-10T13:30:00Z", now: now)?.utc == 1_718_026_200)
        #expect(Self.moved.parse("2001-01-01 12:00", now: now)?.offset == -28_800)
        // The evening of the move: 23:30 Berlin on 31 May is still Los Angeles time (the move is at Berlin's midnight).
        #expect(Self.moved.parse("2024-05-31 23:30", now: now)?.offset == -25_200)
    }

    @Test func nowAndTodayFollowTheZoneOfNow() {
        let now: Int64 = 1_735_689_600 + 3_600  // 2025-01-01T01:00Z: 02:00 in Berlin
        #expect(Self.moved.parse("now", now: now) == ZoneResolver.Resolved(utc: now, offset: 3_600, flags: []))
        #expect(Self.moved.day(at: now) == CivilDate.days(fromISO: "2025-01-01"))
        #expect(Self.moved.period(at: now)?.zone == "Europe/Berlin")
        #expect(Self.moved.period(at: 0)?.zone == "America/Los_Angeles")
        // Someone without a zone: the fallback, and no period of their own.
        let nobody = ZoneHistory(periods: [], fallback: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(nobody.offset(at: now) == 32_400 && nobody.period(at: now) == nil)
        #expect(nobody.parse("09:00", now: now)?.utc == 1_735_689_600)
    }
}
