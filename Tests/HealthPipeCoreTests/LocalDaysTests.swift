import HealthPipeCore
import Testing

/// The one rule for the local day of an instant (Core/Time/LocalDays) and its ±14 h window.
@Suite struct LocalDaysTests {
    @Test func theLocalDayFollowsTheRecordsOwnOffset() {
        // 2024-03-01 23:30 UTC is 1 March in London, 2 March in Tokyo (+9 h), 1 March in New York (−5 h).
        let utc: Int64 = 1_709_335_800
        let march1 = CivilDate.days(year: 2024, month: 3, day: 1)
        #expect(LocalDays.day(utc, 0) == march1)
        #expect(LocalDays.day(utc, 9 * 3600) == march1 + 1)
        #expect(LocalDays.day(utc, -5 * 3600) == march1)
        #expect(LocalDays.day(utc, offsetSeconds: 9 * 3600) == march1 + 1)
        // Before 1970 the day is floored, not truncated toward zero.
        #expect(LocalDays.day(-1, 0) == -1)
        #expect(LocalDays.day(-86_400, 0) == -1 && LocalDays.day(-86_401, 0) == -2)
    }

    @Test func theWindowHoldsEveryInstantOfTheDaysInEveryZone() {
        let first: Int64 = 19_000, last: Int64 = 19_002
        let (from, to) = LocalDays.utcBounds(firstDay: first, lastDay: last)
        let closed = LocalDays.utcBounds(first...last)
        #expect(closed.lowerBound == from && closed.upperBound == to - 1)
        for offset in stride(from: -12 * 3600, through: 14 * 3600, by: 1800) {
            // The first and last second of the run, read at this offset, lie inside the window.
            let start = first * 86_400 - Int64(offset), end = (last + 1) * 86_400 - 1 - Int64(offset)
            #expect(start >= from && end < to, "offset \(offset)")
            #expect(LocalDays.day(start, Int32(offset)) == first && LocalDays.day(end, Int32(offset)) == last)
        }
    }

    @Test func everyGlucoseUnitSpellingReadsOneWay() {
        for s in ["mg/dL", "mg/dl", "MG/DL", "mgdl", "mg"] { #expect(GlucoseUnit(spelling: s) == .mgdl, "\(s)") }
        for s in ["mmol/L", "mmol/l", "mmol", "mmoll", "mmol<180.1558800000541>/L"] { #expect(GlucoseUnit(spelling: s) == .mmol, "\(s)") }
        for s in ["", "kg", "mg/L", "%"] { #expect(GlucoseUnit(spelling: s) == nil, "\(s)") }
    }
}
