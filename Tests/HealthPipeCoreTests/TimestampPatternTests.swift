@testable import HealthPipeCore
import Testing

@Suite struct TimestampPatternTests {
    let clarity = try! TimestampPattern("%Y-%m-%dT%H:%M:%S")

    @Test func clarityFormsAllParse() throws {
        let expected = CivilDate.days(year: 2016, month: 10, day: 24) * 86_400 + 11 * 3600 + 24 * 60 + 17
        #expect(clarity.parse("2016-10-24T11:24:17")?.seconds == expected)
        #expect(clarity.parse("2016-10-24 11:24:17")?.seconds == expected)
        #expect(clarity.parse("2025-05-01 0:01:47")?.seconds == CivilDate.days(year: 2025, month: 5, day: 1) * 86_400 + 107)
        #expect(clarity.parse("2016-10-24T11:24:17")?.offset == nil)
    }

    @Test func rejectsGarbageAndImpossibleDates() {
        #expect(clarity.parse("") == nil)
        #expect(clarity.parse("Low") == nil)
        #expect(clarity.parse("2016-10-24T11:2") == nil)
        #expect(clarity.parse("2016-02-30T10:00:00") == nil)
        #expect(clarity.parse("2016-13-01T10:00:00") == nil)
        #expect(clarity.parse("2016-10-24T25:00:00") == nil)
        #expect(clarity.parse("2016-10-24T11:24:17 extra") == nil)
    }

    /// The 19-byte ISO form is read at fixed positions; whatever the bytes, it must say what the walk says.
    @Test func fixedPositionsAgreeWithTheWalk() throws {
        let walk = try TimestampPattern("%Y-%m-%dT%H:%M:%S", fixedPositions: false)
        #expect(clarity.isISO && !walk.isISO)
        var texts = ["2016-10-24T11:24:17", "2016-10-24 11:24:17", " 2016-10-24T11:24:17", "2016-10-24T11:24:17\r",
                     "2024-02-29T23:59:59", "2023-02-29T00:00:00", "2000-02-29T12:00:00", "1900-02-29T12:00:00",
                     "2016-10-24T11:24:60", "2016-10-24T11:60:00", "2016-10-24T24:00:00", "2016-00-10T10:00:00",
                     "2016-10-00T10:00:00", "2016-10-24X11:24:17", "2016/10/24T11:24:17", "2016-10-24T11:24:1x",
                     "+016-10-24T11:24:17", "2016-1-024T11:24:17", "2016-10-24T1:24:170", "0000-01-01T00:00:00"]
        // Random 19-byte strings over digits and the separators: the fast path's every branch, both ways.
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-: T".utf8)
        for _ in 0..<20_000 {
            var b = Array("2020-06-15T12:30:45".utf8)
            for _ in 0..<Int.random(in: 0...3, using: &rng) { b[Int.random(in: 0..<19, using: &rng)] = alphabet.randomElement(using: &rng)! }
            texts.append(String(decoding: b, as: UTF8.self))
        }
        for t in texts { #expect(clarity.parse(t) == walk.parse(t), "\(t)") }
        #expect(clarity.parse("2016-10-24T11:24:60")?.seconds == clarity.parse("2016-10-24T11:24:59")?.seconds)
    }

    @Test func twelveHourClock() throws {
        let p = try TimestampPattern("%m-%d-%Y %I:%M %p")
        let day = CivilDate.days(year: 2021, month: 3, day: 20) * 86_400
        #expect(p.parse("03-20-2021 05:38 PM")?.seconds == day + 17 * 3600 + 38 * 60)
        #expect(p.parse("03-20-2021 12:05 AM")?.seconds == day + 5 * 60)
        #expect(p.parse("03-20-2021 12:05 PM")?.seconds == day + 12 * 3600 + 5 * 60)
        #expect(p.parse("03-20-2021 13:05 PM") == nil)
    }

    @Test func offsetsAndEpochs() throws {
        let iso = try TimestampPattern("%Y-%m-%dT%H:%M:%S%z")
        let t = iso.parse("2026-04-05T20:30:29.000Z")
        #expect(t?.offset == 0)
        #expect(t?.seconds == 1_775_421_029)
        let apple = try TimestampPattern("%Y-%m-%d %H:%M:%S %z")
        let a = apple.parse("2019-06-11 15:00:00 -0700")
        #expect(a?.offset == Int32(-25_200))
        let ms = try TimestampPattern("epoch_ms")
        #expect(ms.parse("1775421029000")?.seconds == 1_775_421_029)
        #expect(ms.parse("1778284500105.5488")?.seconds == 1_778_284_500)
    }

    @Test func badPatternsAreErrors() {
        #expect(throws: TimestampPatternError.self) { try TimestampPattern("%H:%M") }
        #expect(throws: TimestampPatternError.self) { try TimestampPattern("%Y-%q") }
    }

    @Test func civilDateRoundTrips() {
        for d: Int64 in [-719_468, -1, 0, 1, 10_957, 20_000, 2_932_896] {
            let (y, m, day) = CivilDate.date(fromDays: d)
            #expect(CivilDate.days(year: y, month: m, day: day) == d)
        }
        #expect(CivilDate.isoDate(fromDays: 0) == "1970-01-01")
        #expect(CivilDate.isoDate(fromDays: -3186) == "1961-04-12")
    }
}
