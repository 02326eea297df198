import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// Fitbit's account export read by content: heart rate (real excerpt), resting heart rate (real files;
/// a day written as 0.0 is no value), the per-minute series whose name says which series they are.
@Suite struct FitbitSourcesTests {
    static let root = Repository.root
    static let real = root.appendingPathComponent("Tests/Fixtures/real/fitbit")
    static let registry = try! BuiltinPlugins.registry(pluginPaths: [])

    static func detected(_ path: String) throws -> String {
        try registry.identify(FileSniff.read(path: path)).name
    }

    static func run(_ format: String, _ path: String, options: String = "") throws -> SourceOutput {
        let component = try #require(registry.component(named: format))
        return try SourceRunner.run(SourceRunner.build(component, path: path, options: options))
    }

    /// A temporary folder with `files` (name → text); removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fitbit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func readsFitbitTimesAtFixedPositions() {
        func seconds(_ s: String) -> Int64? { Array(s.utf8).withUnsafeBytes { FitbitDateTime.seconds($0) } }
        #expect(seconds("01/31/21 06:00:15") == 1_612_072_815)
        #expect(seconds("02/29/24 23:59:59") == 1_709_251_199)
        #expect(seconds("02/29/23 00:00:00") == nil)  // no such day
        #expect(seconds("13/01/21 00:00:00") == nil)
        #expect(seconds("01/01/21 24:00:00") == nil)
        #expect(seconds("2021-01-01T00:00:00") == nil)
    }

    @Test func heartRateIsDetectedByContentAndItsTimesAreUTC() throws {
        let path = Self.real.appendingPathComponent("heart_rate-2022-10-07.json").path
        #expect(try Self.detected(path) == "fitbit-heart-rate")
        let out = try Self.run("fitbit-heart-rate", path, options: "timezone: America/Los_Angeles\n")
        #expect(out.measurements.count == 360)
        #expect(out.measurements.reduce(0) { $0 + $1.value } == 31506)
        #expect(out.quarantineLines.isEmpty)
        let first = try #require(out.measurements.first)
        #expect(first.metric == Symbol("heart_rate") && first.unit == Symbol("count/min") && first.source == Symbol("Fitbit"))
        // 10/07/22 07:00:12 is UTC: the local midnight of the file's day on US Pacific summer time.
        #expect(first.start == 1_665_126_012 && first.utcOffset == -7 * 3600)
        // Every reading of the file named for 2022-10-07 falls on that local day.
        let day = CivilDate.days(year: 2022, month: 10, day: 7)
        #expect(out.measurements.allSatisfy { CivilDate.floorDiv($0.start + Int64($0.utcOffset), 86_400) == day })
    }

    @Test func restingHeartRateOfRealFilesIsOnePerDayAtLocalMidnight() throws {
        let path = Self.real.appendingPathComponent("resting_heart_rate-2024-03-01.json").path
        #expect(try Self.detected(path) == "fitbit-resting-heart-rate")
        let out = try Self.run("fitbit-resting-heart-rate", path, options: "timezone: Europe/Amsterdam\n")
        #expect(out.measurements.map(\.value) == [54.01231098175049, 55.069952964782715])
        // 03/01/24 at midnight in Amsterdam (UTC+1) is 2024-02-29T23:00Z.
        #expect(out.measurements.first?.start == 1_709_247_600 && out.measurements.first?.utcOffset == 3600)
    }

    @Test func aRestingDayWrittenAsZeroIsNoValueAndCountedAsSkipped() throws {
        let dir = try Self.folder(["rhr.json": """
            [{"dateTime":"01/01/21 00:00:00","value":{"date":"01/01/21","value":0.0,"error":0.0}},\
            {"dateTime":"01/02/21 00:00:00","value":{"date":"01/02/21","value":61.37,"error":7.2}}]
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rhr.json").path
        #expect(try Self.detected(path) == "fitbit-resting-heart-rate")
        let out = try Self.run("fitbit-resting-heart-rate", path)
        #expect(out.measurements.map(\.value) == [61.37])
        #expect(out.quarantineLines.isEmpty)
        #expect(out.context.warnings.contains { $0.contains("1 day(s) without a resting heart rate") })
    }

    @Test func stepsAreNamedByTheFileAndOtherSeriesAreCountedNotImported() throws {
        let minutes = """
            [{
              "dateTime" : "02/25/23 13:17:00",
              "value" : "0"
            },{
              "dateTime" : "02/25/23 13:52:00",
              "value" : "5"
            },{
              "dateTime" : "02/25/23 14:00:00",
              "value" : "38"
            }]
            """
        let dir = try Self.folder(["steps-2023-02-26.json": minutes, "distance-2023-02-26.json": minutes, "export.json": minutes])
        defer { try? FileManager.default.removeItem(at: dir) }
        let steps = dir.appendingPathComponent("steps-2023-02-26.json").path
        #expect(try Self.detected(steps) == "fitbit-minute-series")
        let out = try Self.run("fitbit-minute-series", steps)
        #expect(out.measurements.map(\.value) == [0, 5, 38])
        #expect(out.measurements.allSatisfy { $0.metric == Symbol("step_count") && $0.end == $0.start + 60 })

        let distance = try Self.run("fitbit-minute-series", dir.appendingPathComponent("distance-2023-02-26.json").path)
        #expect(distance.measurements.isEmpty && distance.quarantineLines.isEmpty)
        #expect(distance.context.warnings.contains { $0.contains("3 minute(s) of Fitbit distance") })

        // A file whose name does not say which series: refused with the way out, nothing stored.
        let unnamed = dir.appendingPathComponent("export.json").path
        let component = try #require(Self.registry.component(named: "fitbit-minute-series"))
        let refused = SourceRunner.collect(try SourceRunner.build(component, path: unnamed))
        #expect(refused.measurements.isEmpty)
        #expect(String(describing: refused.error ?? InputError(file: "", reason: "")).contains("series option"))
        #expect(try Self.run("fitbit-minute-series", unnamed, options: "series: steps\n").measurements.count == 3)
    }
}
