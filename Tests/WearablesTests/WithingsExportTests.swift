import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// Withings' account data export (real files in Tests/Fixtures/real/withings; their counts are
/// count.py's, checked by RealCorpusTests): English and German headers, kg and lb, the time rules.
@Suite struct WithingsExportTests {
    static let real = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/withings")

    static func run(_ file: String, as format: String, options: String = "") throws -> SourceOutput {
        let path = real.appendingPathComponent(file).path
        #expect(try FitbitSourcesTests.detected(path) == format)
        return try FitbitSourcesTests.run(format, path, options: options)
    }

    /// weight.csv's date is the wall clock (--timezone); pounds become kg.
    @Test func weighingsAreLocalTimeAndPoundsBecomeKilograms() throws {
        let en = try Self.run("weight-en.csv", as: "withings-weight", options: "timezone: Europe/Berlin\n")
        #expect(en.quarantineLines.isEmpty)
        let first = try #require(en.measurements.first { $0.metric == Symbol("body_mass") })
        // "2026-02-23 09:02:01" in Berlin (+01:00 in winter) = 08:02:01Z.
        #expect(first.start == 1_771_833_721 && first.utcOffset == 3600 && first.unit.text == "kg")
        let lb = try Self.run("weight-lb.csv", as: "withings-weight", options: "timezone: America/Los_Angeles\n")
        let pounds = try #require(lb.measurements.first { $0.metric == Symbol("body_mass") })
        #expect(abs(pounds.value - 148.5 * 0.453_592_37) < 1e-9)
        let de = try Self.run("weight-de.csv", as: "withings-weight", options: "timezone: Europe/Berlin\n")
        #expect(de.measurements.count == 3 && de.measurements.allSatisfy { $0.metric == Symbol("body_mass") })
    }

    /// sleep.csv spans each night in its own offset; a heart rate of 0 is a night without one.
    @Test func nightsSpanFromToInTheirOwnOffset() throws {
        let en = try Self.run("sleep-en.csv", as: "withings-sleep")
        #expect(en.quarantineLines.isEmpty)
        let light = en.measurements.filter { $0.metric == Symbol("sleep_total.asleep_core") }
        // 2023-10-20T23:33:00-07:00 = 2023-10-21 06:33:00Z to 09:35 -07:00 = 16:35Z; 18540 s = 309 min.
        #expect(light.first?.start == 1_697_869_980 && light.first?.end == 1_697_906_100 && light.first?.value == 309)
        #expect(light.dropFirst().first?.utcOffset == -28_800)  // November: -08:00
        let average = en.measurements.filter { $0.metric == Symbol("withings.sleep_heart_rate_average") }
        #expect(average.count == light.count - 2 && average.allSatisfy { $0.value > 0 })
        let de = try Self.run("sleep-de.csv", as: "withings-sleep")
        #expect(de.quarantineLines.isEmpty && de.measurements.filter { $0.metric == Symbol("sleep_total.asleep_deep") }.count == 12)
    }

    @Test func bloodPressureFileInEitherLanguage() throws {
        let en = try Self.run("bp-en.csv", as: "withings-bp", options: "timezone: Europe/Berlin\n")
        let de = try Self.run("bp-de.csv", as: "withings-bp", options: "timezone: Europe/Berlin\n")
        #expect(en.measurements.count == 10 && de.measurements.count == 1)
        #expect((en.measurements + de.measurements).allSatisfy { $0.metric == Symbol("heart_rate") })
    }

    /// raw_*.csv: element i starts where the durations before it end; the series is the file's name.
    @Test func rawArraysAreSplitIntoTheirElementsAndTheNameSaysTheSeries() throws {
        let hr = try Self.run("raw_hr_hr.csv", as: "withings-raw")
        #expect(hr.quarantineLines.isEmpty && hr.measurements.allSatisfy { $0.metric == Symbol("heart_rate") })
        // 2026-07-18T00:18:41+02:00,"[1,1,1]","[78,79,76]": 22:18:41Z, :42, :43, each a second long.
        let burst = hr.measurements.filter { (1_784_326_721...1_784_326_723).contains($0.start) }
        #expect(burst.map(\.value) == [78, 79, 76] && burst.allSatisfy { $0.end == $0.start + 1 && $0.utcOffset == 7200 })
        let sleep = try Self.run("raw_tracker_sleep-state.csv", as: "withings-raw")
        let first = try #require(sleep.measurements.first)
        // 2019-12-29T00:26:00+01:00 for 120 s, then the next state from 23:28:00Z.
        #expect(first.start == 1_577_575_560 && first.end == first.start + 120 && first.value == 2)
        #expect(sleep.measurements.dropFirst().first?.start == first.end)
    }

    @Test func aRawFileOfAnotherSeriesOrWithUnequalArraysIsAccountedFor() throws {
        let dir = try FitbitSourcesTests.folder([
            "raw_tracker_distance.csv": "start,duration,value\n2019-12-28T11:49:00+01:00,\"[60,60]\",\"[6.5,5]\"\n",
            "raw_tracker_steps.csv": "start,duration,value\n2019-12-28T11:49:00+01:00,\"[60,60]\",[6]\n2019-12-28T11:51:00+01:00,[60],[7]\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let distance = try FitbitSourcesTests.run("withings-raw", dir.appendingPathComponent("raw_tracker_distance.csv").path)
        #expect(distance.measurements.isEmpty && distance.quarantineLines.isEmpty)
        #expect(distance.context.warnings.contains { $0.contains("not imported: 1 row(s) of a Withings raw series") })
        let steps = try FitbitSourcesTests.run("withings-raw", dir.appendingPathComponent("raw_tracker_steps.csv").path)
        #expect(steps.measurements.map(\.value) == [7])
        #expect(steps.quarantineLines.count == 1 && steps.quarantineLines[0].contains("2 duration(s) for 1 value(s)"))
    }
}
