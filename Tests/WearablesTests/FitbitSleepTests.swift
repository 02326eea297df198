import Foundation
import HealthPipeCore
import Testing
@testable import Wearables

/// Fitbit sleep logs stored as Apple Health's sleep analysis (a real excerpt: one classic, two stages logs).
@Suite struct FitbitSleepTests {
    static let path = FitbitSourcesTests.real.appendingPathComponent("sleep-2020-03-31.json").path

    @Test func sleepLogsAreDetectedByContentAndStoredAsSessionsWithStageSpans() throws {
        #expect(try FitbitSourcesTests.detected(Self.path) == "fitbit-sleep")
        let out = try FitbitSourcesTests.run("fitbit-sleep", Self.path, options: "timezone: Australia/Melbourne\n")
        #expect(out.quarantineLines.isEmpty)
        let sessions = out.measurements.filter { $0.metric == Symbol("sleep_analysis.in_bed") }
        // startTime–endTime: Fitbit's timeInBed (196, 411, 448) and, on two of them, 30 s more.
        #expect(sessions.map(\.value) == [196.5, 411.5, 448])
        // startTime 2020-04-16T00:06:00.000 is Melbourne local time (+10:00 after DST ended on 5 April).
        #expect(sessions[0].start == 1_586_959_560 && sessions[0].utcOffset == 36_000)
        #expect(sessions[0].end == sessions[0].start + 11_790)
        #expect(sessions[0].metadata == #"{"logId":19347529955,"type":"classic","dateOfSleep":"2020-04-16","minutesAsleep":177,"timeInBed":196,"mainSleep":true}"#)
        for session in sessions {
            // The spans tile the session: no overlap (short wakes are cut out), no gap, nothing outside it.
            // A stages log's levels end at endTime; a classic log's 30 s before it (at startTime + duration).
            let spans = out.measurements.filter { $0.metric != session.metric && $0.start >= session.start && $0.start < session.end }
                .sorted { $0.start < $1.start }
            let stages = session.metadata?.contains(#""type":"stages""#) == true
            #expect(spans.first?.start == session.start && spans.last?.end == (stages ? session.end : session.end - 30))
            #expect(zip(spans, spans.dropFirst()).allSatisfy { $0.end == $1.start })
            #expect(spans.allSatisfy { $0.value == Double($0.end - $0.start) / 60 && $0.unit == CanonicalUnits.minutes })
        }
        // Fitbit's minutesAsleep of the second log (stages) is its light + deep + rem, within Fitbit's rounding.
        let night = sessions[1]
        let asleep = out.measurements.filter { $0.metric.text.hasPrefix("sleep_analysis.asleep") && $0.start >= night.start && $0.end <= night.end }
        #expect(abs(asleep.reduce(0) { $0 + $1.value } - 378) <= 1)
    }

    @Test func shortWakesAreCutOutOfTheSpansTheyInterrupt() {
        typealias S = FitbitSleepStages
        let data = [S.Span(start: 0, end: 600, metric: S.light), S.Span(start: 600, end: 900, metric: S.deep)]
        let short = [S.Span(start: 120, end: 180, metric: S.awake), S.Span(start: 570, end: 630, metric: S.awake)]
        let flat = S.flatten(data: data, short: short).map { [$0.start, $0.end] }
        #expect(flat == [[0, 120], [120, 180], [180, 570], [570, 630], [630, 900]])
    }

    @Test func anUnknownLevelRejectsTheLogWithItsPath() throws {
        let text = """
            [{"logId" : 1, "dateOfSleep" : "2020-04-16", "startTime" : "2020-04-16T00:06:00.000", "duration" : 60000,
              "type" : "classic", "levels" : {"data" : [{"dateTime" : "2020-04-16T00:06:00.000", "level" : "dozing", "seconds" : 60}]}}]
            """
        let dir = try FitbitSourcesTests.folder(["sleep-2020-04-16.json": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try FitbitSourcesTests.run("fitbit-sleep", dir.appendingPathComponent("sleep-2020-04-16.json").path)
        #expect(out.measurements.isEmpty)
        #expect(out.quarantineLines.count == 1)
    }

    /// The night the clock springs forward (Amsterdam, 2022-03-27 02:00 → 03:00), as a real export writes
    /// it: duration and levels count on in the start's offset and an `unknown` hour fills up to endTime's
    /// wall clock. Every time is placed with the start's offset; the filler is counted, not stored.
    @Test func aClockChangeNightKeepsTheStartsOffsetAndUnknownIsNotStored() throws {
        let text = """
            [{"logId" : 2, "dateOfSleep" : "2022-03-27", "startTime" : "2022-03-26T23:09:30.000",
              "endTime" : "2022-03-27T06:48:30.000", "duration" : 27540000, "type" : "stages",
              "levels" : {"data" : [{"dateTime" : "2022-03-26T23:09:30.000", "level" : "light", "seconds" : 23940},
                                    {"dateTime" : "2022-03-27T05:48:30.000", "level" : "unknown", "seconds" : 3600}]}}]
            """
        let dir = try FitbitSourcesTests.folder(["sleep-2022-03-27.json": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try FitbitSourcesTests.run("fitbit-sleep", dir.appendingPathComponent("sleep-2022-03-27.json").path,
                                             options: "timezone: Europe/Amsterdam\n")
        #expect(out.quarantineLines.isEmpty)
        #expect(out.measurements.map(\.metric.text) == ["sleep_analysis.in_bed", "sleep_analysis.asleep_core"])
        let light = try #require(out.measurements.last)
        // 23:09:30 at +01:00 is 22:09:30Z; the light span's 399 minutes end at the real wake-up, 04:48:30Z.
        #expect(light.start == 1_648_332_570 && light.end == 1_648_356_510 && light.utcOffset == 3600)
        #expect(out.context.warnings.contains { $0.contains("1 sleep level span(s) 'unknown' (60 min)") })
    }

    /// sleep_score.csv's timestamp is the sleep log's endTime wall clock (its Z is not UTC): read in --timezone.
    @Test func sleepScoreIsAtTheNightsLocalWakeUp() throws {
        let path = FitbitSourcesTests.real.appendingPathComponent("sleep_score.csv").path
        #expect(try FitbitSourcesTests.detected(path) == "fitbit-sleep-score")
        let out = try FitbitSourcesTests.run("fitbit-sleep-score", path, options: "timezone: Europe/Amsterdam\n")
        #expect(out.quarantineLines.isEmpty)
        let first = try #require(out.measurements.first { $0.metric == Symbol("fitbit.sleep_score") })
        // 2020-08-17T05:35:00Z is 05:35 in Amsterdam (+02:00 in summer) = 03:35 UTC.
        #expect(first.start == 1_597_635_300 && first.utcOffset == 7200 && first.value == 88)
    }
}
