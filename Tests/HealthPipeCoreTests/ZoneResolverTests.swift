import Foundation
import HealthPipeCore
import Testing

@Suite struct ZoneResolverTests {
    let london = ZoneResolver.timeZone(named: "Europe/London")!

    func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Int64 {
        CivilDate.days(year: y, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60)
    }

    @Test func ordinaryDaysUseTheDaysOffset() throws {
        var r = ZoneResolver(zone: london)
        let winter = try r.resolve(local: local(2024, 1, 15, 12, 0))
        #expect(winter.offset == 0 && winter.utc == local(2024, 1, 15, 12, 0) && winter.flags.isEmpty)
        let summer = try r.resolve(local: local(2024, 7, 15, 12, 0))
        #expect(summer.offset == 3600 && summer.utc == local(2024, 7, 15, 11, 0))
    }

    @Test func fallBackHourIsAmbiguous() throws {
        // 2024-10-27 01:30 happens twice in London (BST then GMT).
        let t = local(2024, 10, 27, 1, 30)
        var earlier = ZoneResolver(zone: london, ambiguous: .earlier)
        let e = try earlier.resolve(local: t)
        #expect(e.utc == local(2024, 10, 27, 0, 30) && e.offset == 3600 && e.flags.contains(.ambiguousLocalTime))
        var later = ZoneResolver(zone: london, ambiguous: .later)
        let l = try later.resolve(local: t)
        #expect(l.utc == local(2024, 10, 27, 1, 30) && l.offset == 0)
        var strict = ZoneResolver(zone: london, ambiguous: .error)
        #expect(throws: ZoneResolutionError.self) { try strict.resolve(local: t) }
        // Just outside the repeated hour it is unique again.
        let after = try earlier.resolve(local: local(2024, 10, 27, 2, 0))
        #expect(after.flags.isEmpty && after.offset == 0)
    }

    @Test func springForwardGapIsShiftedOrRefused() throws {
        // 2024-03-31 01:30 does not exist in London (01:00 GMT → 02:00 BST).
        let t = local(2024, 3, 31, 1, 30)
        var shift = ZoneResolver(zone: london)
        let s = try shift.resolve(local: t)
        #expect(s.utc == local(2024, 3, 31, 1, 30) && s.offset == 3600 && s.flags.contains(.nonexistentLocalTime))
        var strict = ZoneResolver(zone: london, nonexistent: .error)
        #expect(throws: ZoneResolutionError.self) { try strict.resolve(local: t) }
        let before = try shift.resolve(local: local(2024, 3, 31, 0, 59))
        #expect(before.offset == 0 && before.flags.isEmpty)
    }

    @Test func fixedOffsetsAndNames() throws {
        #expect(ZoneResolver.timeZone(named: "+02:00")?.secondsFromGMT() == 7200)
        #expect(ZoneResolver.timeZone(named: "-0530")?.secondsFromGMT() == -19_800)
        #expect(ZoneResolver.timeZone(named: "UTC")?.secondsFromGMT() == 0)
        #expect(ZoneResolver.timeZone(named: "Mars/Olympus") == nil)
        #expect(ZoneResolver.timeZone(named: "nonsense") == nil)
    }
}
