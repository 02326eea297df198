import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// Google Fit's Takeout activity CSVs (real excerpts in Tests/Fixtures/real/google-fit; their counts are
/// count.py's, checked by RealCorpusTests): the daily file's rows span their local day, the per-day
/// file's rows their quarter hour of the day its name gives.
@Suite struct GoogleFitActivityTests {
    static let real = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/google-fit")

    static func run(_ file: String, options: String = "") throws -> SourceOutput {
        let path = real.appendingPathComponent(file).path
        #expect(try FitbitSourcesTests.detected(path) == "google-fit-activity")
        return try FitbitSourcesTests.run("google-fit-activity", path, options: options)
    }

    @Test func readsGoogleFitDaysAndClockTimes() {
        func day(_ s: String) -> Int64? { Array(s.utf8).withUnsafeBytes { GoogleFitClock.day($0) } }
        func clock(_ s: String) -> (Int64, Int32)? { Array(s.utf8).withUnsafeBytes { GoogleFitClock.clock($0).map { ($0.seconds, $0.offset) } } }
        #expect(day("2025-02-03") == CivilDate.days(year: 2025, month: 2, day: 3))
        #expect(day("2023-02-29") == nil && day("2025-13-01") == nil && day("2025-2-3") == nil)
        #expect(clock("00:15:00.000+05:30")! == (900, 19_800))
        #expect(clock("23:45:00-04:00")! == (85_500, -14_400))
        #expect(clock("07:00:00.000Z")! == (25_200, 0))
        #expect(clock("24:00:00.000+05:30") == nil && clock("00:15:00.+05:30") == nil && clock("00:15:00.000") == nil)
    }

    /// 2025-01-29 in Asia/Kolkata runs from 2025-01-28 18:30Z for 24 hours; every listed column of the
    /// 2025 layout is stored, in its canonical unit.
    @Test func dailyRowsSpanTheirLocalDay() throws {
        let out = try Self.run("Daily activity metrics-2025.csv", options: "timezone: Asia/Kolkata\n")
        #expect(out.quarantineLines.isEmpty)
        let steps = out.measurements.filter { $0.metric == Symbol("step_count") }
        let first = try #require(steps.first)
        #expect(first.start == 1_738_089_000 && first.end == first.start + 86_400 && first.utcOffset == 19_800)
        #expect(first.value == 3376 && first.source == Symbol("Google Fit"))
        let distance = try #require(out.measurements.first { $0.metric == Symbol("distance") })
        #expect(distance.unit == Symbol("km") && abs(distance.value - 2.3342159311031432) < 1e-12)
        #expect(Set(out.measurements.map(\.metric.text)) == ["step_count", "distance", "total_energy_burned", "active_minutes",
                                                            "google_fit.heart_points", "google_fit.heart_minutes", "body_mass"])
    }

    @Test func dailyRowsNeedAZone() throws {
        let path = Self.real.appendingPathComponent("Daily Summaries.csv").path
        #expect(throws: InputError.self) { try FitbitSourcesTests.run("google-fit-activity", path) }
    }

    /// `00:15:00.000+05:30` of the file named 2025-02-03 is 2025-02-02 18:45Z; the last quarter ends at
    /// the next midnight (`23:45:00.000+05:30,00:00:00.000+05:30`).
    @Test func quarterHoursAreOnTheDayTheFileIsNamedFor() throws {
        let out = try Self.run("2025-02-03.csv")
        #expect(out.quarantineLines.isEmpty)
        let steps = out.measurements.filter { $0.metric == Symbol("step_count") }
        let first = try #require(steps.first)
        #expect(first.start == 1_738_521_900 && first.end == first.start + 900 && first.utcOffset == 19_800 && first.value == 43)
        #expect(first.source == Symbol("Google Fit (15 min)"))
        let energy = out.measurements.filter { $0.metric == Symbol("total_energy_burned") }
        #expect(energy.count == 96 && energy.last?.end == 1_738_607_400)
    }

    /// A per-day file read from a stream (or renamed) has no day: refused with the reason, unless the
    /// day option gives it.
    @Test func aPerDayFileWithoutItsNameNeedsTheDayOption() throws {
        let text = try String(contentsOf: Self.real.appendingPathComponent("2025-02-03.csv"), encoding: .utf8)
        let dir = try FitbitSourcesTests.folder(["quarter-hours.csv": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("quarter-hours.csv").path
        #expect(throws: InputError.self) { try FitbitSourcesTests.run("google-fit-activity", path) }
        let out = try FitbitSourcesTests.run("google-fit-activity", path, options: "day: 2025-02-03\n")
        #expect(out.measurements.first { $0.metric == Symbol("step_count") }?.start == 1_738_521_900)
    }

    /// A cell that is not a number, or a value no phone can count, quarantines its row with the reason.
    @Test func aRowWithABadValueIsQuarantined() throws {
        let dir = try FitbitSourcesTests.folder(["Daily activity metrics.csv": """
            Date,Move Minutes count,Calories (kcal),Distance (m),Step count
            2025-01-29,51,409.5,2652.3,3952
            2025-01-30,85,1490.4,3880.1,lots
            2025-01-31,56,1459.1,2320.1,-5

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try FitbitSourcesTests.run("google-fit-activity", dir.appendingPathComponent("Daily activity metrics.csv").path,
                                             options: "timezone: UTC\n")
        #expect(out.quarantineLines.count == 2)
        #expect(out.measurements.filter { $0.metric == Symbol("step_count") }.map(\.value) == [3952])
    }
}
