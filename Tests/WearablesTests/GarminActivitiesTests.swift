import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// Garmin Connect's Activities.csv in every language of the real corpus, read by content: each activity
/// one exercise event whose totals equal Tests/Fixtures/real/garmin/count.py's, Garmin's numbers and
/// durations read as it writes them, and a cell in another layout quarantined with the reason.
@Suite struct GarminActivitiesTests {
    static let real = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/garmin")

    /// One file of the folder's expected.json (written by count.py).
    struct Case: CustomTestStringConvertible, Sendable {
        var file: String, timezone: String, unit: String, count: Int, quarantined: Int
        var totals: [String: Double]
        var testDescription: String { file }
    }

    static func cases() -> [Case] {
        guard let data = FileManager.default.contents(atPath: real.appendingPathComponent("expected.json").path),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = json["files"] as? [[String: Any]] else { return [] }
        return files.map { f in
            let events = f["events"] as? [String: [String: Any]] ?? [:]
            return Case(file: f["file"] as? String ?? "?", timezone: f["timezone"] as? String ?? "UTC",
                        unit: f["distance_unit"] as? String ?? "km",
                        count: (events["exercise"]?["count"] as? NSNumber)?.intValue ?? -1,
                        quarantined: (f["quarantined"] as? NSNumber)?.intValue ?? 0,
                        totals: (f["exercise_totals"] as? [String: NSNumber] ?? [:]).mapValues(\.doubleValue))
        }
    }

    static func metadata(_ e: Event) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data((e.metadata ?? "{}").utf8)) as? [String: Any])
    }

    @Test func theCorpusHoldsFourteenFilesInNineLanguages() {
        #expect(Self.cases().count == 14)
    }

    @Test(arguments: cases())
    func realFilesStoreWhatTheIndependentCounterCounts(_ c: Case) throws {
        let path = Self.real.appendingPathComponent(c.file).path
        #expect(try FitbitSourcesTests.detected(path) == "garmin-activities")
        let out = try FitbitSourcesTests.run("garmin-activities", path, options: "timezone: \(c.timezone)\ndistance_unit: \(c.unit)\n")
        #expect(out.quarantineLines.count == c.quarantined, "\(out.quarantineLines)")
        // The store keeps one event per (kind, subtype, source, start, amount): the counter's distinct activities.
        var seen = Set<String>(), sums: [String: Double] = [:]
        for e in out.events where seen.insert("\(e.subtype.text)|\(e.start)").inserted {
            #expect(e.kind == .exercise && e.source == Symbol("Garmin Connect"))
            let m = try Self.metadata(e)
            for key in ["duration_min", "distance_km", "energy_kcal", "steps"] {
                sums[key, default: 0] += (m[key] as? NSNumber)?.doubleValue ?? 0
            }
            sums["with_heart_rate", default: 0] += m["avg_heart_rate"] == nil ? 0 : 1
            // The event lasts its Time, to the second.
            #expect(abs(Double(e.end - e.start) - ((m["duration_min"] as? NSNumber)?.doubleValue ?? 0) * 60) <= 0.5)
        }
        #expect(seen.count == c.count)
        for (key, want) in c.totals {
            #expect(abs((sums[key] ?? 0) - want) <= 1e-6 * max(1, abs(want)), "\(c.file) \(key): \(sums[key] ?? 0), counter \(want)")
        }
    }

    @Test func datesAreTheActivitysLocalClockAndWholeDistancesAreMetres() throws {
        let da = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent("Activities-da.csv").path,
                                            options: "timezone: Europe/Copenhagen\n")
        // 2018-04-02 15:05:08 in Copenhagen (summer time, +02:00) is 13:05:08 UTC.
        let first = try #require(da.events.first)
        #expect(first.start == 1_522_674_308 && first.utcOffset == 7200 && first.subtype == Symbol("running"))
        #expect(first.end - first.start == 37 * 60 + 43)
        let de = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent("Activities-de.csv").path,
                                            options: "timezone: Europe/Zurich\n")
        let track = try #require(de.events.first { $0.subtype == Symbol("track_running") })
        let m = try Self.metadata(track)
        #expect(m["distance"] as? Double == 2819 && m["distance_unit"] as? String == "m" && m["distance_km"] as? Double == 2.819)
    }

    /// One sport, one name in every language: every activity type of the real corpus is a Garmin type key.
    @Test func everyTypeOfTheCorpusBecomesGarminsTypeKey() throws {
        var keys = Set<String>()
        for c in Self.cases() {
            let out = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent(c.file).path,
                                                 options: "timezone: \(c.timezone)\n")
            keys.formUnion(out.events.map(\.subtype.text))
        }
        #expect(keys.isSuperset(of: ["running", "treadmill_running", "trail_running", "street_running", "track_running", "indoor_running",
                                     "cycling", "road_biking", "mountain_biking", "indoor_cycling", "virtual_ride", "lap_swimming",
                                     "open_water_swimming", "strength_training", "walking"]), "\(keys.sorted())")
        // No listed name in its own language is left as a subtype.
        for (written, key) in GarminSports.typeKeys where written != key.replacingOccurrences(of: "_", with: " ") {
            #expect(!keys.contains(written.replacingOccurrences(of: " ", with: "_")), "\(written)")
        }
        #expect(GarminSports.typeKey("Yoga Flow") == "yoga_flow")
    }

    @Test func aTitleWithGarminsUndoubledQuotesStaysWhole() throws {
        let out = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent("Activities-en-2025.csv").path,
                                             options: "timezone: Europe/Warsaw\n")
        let titles = try out.events.map { try Self.metadata($0)["title"] as? String ?? "" }
        #expect(titles.contains("8km + 10x20\"/40\" + 2km"), "\(titles)")
        #expect(out.quarantineLines.isEmpty)
    }

    /// A 2025 Danish export rounds Time to `h:mm` (`0:46` beside an elapsed `00:4x:xx`); the 2017 English
    /// one writes `m:ss` (`42:33`, no elapsed column): the row's elapsed time tells which.
    @Test func aTwoPartTimeIsHoursAndMinutesWhenTheElapsedTimeSaysSo() throws {
        let da = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent("Activities-da-2025.csv").path,
                                            options: "timezone: Europe/Copenhagen\n")
        let swim = try #require(da.events.first)
        #expect(swim.subtype == Symbol("lap_swimming") && swim.end - swim.start == 46 * 60)
        let en = try FitbitSourcesTests.run("garmin-activities", Self.real.appendingPathComponent("Activities-en-2017.csv").path,
                                            options: "timezone: America/Chicago\n")
        let run = try #require(en.events.first)
        #expect(run.end - run.start == 42 * 60 + 33)
    }

    @Test func numbersAndDurationsAsGarminWritesThem() throws {
        let point = GarminNumbers.point, comma = GarminNumbers.comma
        func number(_ s: String, _ n: GarminNumbers = .point) throws -> Double? { try Array(s.utf8).withUnsafeBytes { try n.number($0, "x")?.value } }
        func whole(_ s: String, _ n: GarminNumbers = .point) throws -> Bool? { try Array(s.utf8).withUnsafeBytes { try n.number($0, "x")?.whole } }
        func seconds(_ s: String, _ n: GarminNumbers = .point) throws -> Double? { try Array(s.utf8).withUnsafeBytes { try n.seconds($0, "x") } }
        #expect(try number("1,825") == 1825 && number("14.17") == 14.17 && number("-21") == -21 && number("1,234,567.5") == 1_234_567.5)
        #expect(try number("--") == nil && number("") == nil)
        #expect(try whole("2,810") == true && whole("0.0") == false)
        for bad in ["5,02", "1,23,456", ",5", "1.", "1.2.3", "12a", "1,2345"] {
            #expect(throws: GarminNumbers.Bad.self, "\(bad)") { try number(bad) }
        }
        // The other number format: `3,40` km, `2.932` steps, a fraction after a comma.
        #expect(try number("3,40", comma) == 3.4 && number("2.932", comma) == 2932 && number("1.234,5", comma) == 1234.5)
        #expect(try whole("1.200", comma) == true && whole("0,0", comma) == false)
        #expect(throws: GarminNumbers.Bad.self) { try number("12.23", comma) }
        #expect(try seconds("00:01:39,6", comma)! == 99.6)
        #expect(try seconds("00:36:26") == 2186 && seconds("41:06") == 2466 && seconds("1:23:03") == 4983)
        #expect(try seconds("4:47.8")! == 287.8 && seconds("00:05:35.4")! == 335.4 && seconds("--") == nil && seconds("--:--:--") == nil)
        #expect(try seconds("00:NaN:NaN") == nil && number("NaN") == nil)
        #expect(throws: GarminNumbers.Bad.self) { try number("NaNa") }
        for bad in ["1:5", "1:61:00", "5", "1:00:00:00", "00:00.", ":30", "1:2a", "00:01:39,6"] {
            #expect(throws: GarminNumbers.Bad.self, "\(bad)") { try seconds(bad, point) }
        }
    }

    @Test func theNumberFormatIsTheFilesNotTheLanguages() throws {
        func format(_ rows: String) -> UInt8 {
            GarminNumbers.of(FileSniff(path: "x", prefix: Array(("Activity Type,Date,Favorite,Title,Distance,Calories,Time\r\n" + rows).utf8))).decimal
        }
        #expect(format("Running,2026-01-04 12:38:59,false,\"Run\",\"3,40\",\"255\",\"00:17:01\"\r\n") == UInt8(ascii: ","))
        #expect(format("Running,2025-11-06 16:16:43,false,\"Run\",\"12.23\",\"1,541\",\"00:59:49\"\r\n") == UInt8(ascii: "."))
        #expect(format("Pool Swim,2026-04-17 15:24:47,false,\"Swim\",\"1.200\",\"450\",\"00:43:20,4\"\r\n") == UInt8(ascii: ","))
        // Nothing tells: Garmin's default.
        #expect(format("Pool Swim,2026-04-17 15:24:47,false,\"Swim\",\"1,200\",\"450\",\"00:43:20\"\r\n") == UInt8(ascii: "."))
    }

    @Test func aCellInAnotherLayoutIsQuarantinedWithTheReasonAndTheOtherRowsLand() throws {
        let header = "Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR,Max HR\r\n"
        let dir = try FitbitSourcesTests.folder(["Activities.csv": header
            + "Running,2025-11-06 16:16:43,false,\"Easy Run\",\"12.23\",\"541\",\"00:59:49\",\"124\",\"138\"\r\n"
            + "Running,2025-11-04 16:00:12,false,\"Comma\",\"5,02\",\"708\",\"01:14:46\",\"133\",\"162\"\r\n"
            + "Running,2025-11-02 08:29:18,false,\"Clock\",\"14.27\",\"667\",\"1:5\",\"137\",\"153\"\r\n"
            + "Running,2025-11-01 99:15:01,false,\"Date\",\"18.25\",\"830\",\"01:25:15\",\"143\",\"168\"\r\n"
            + "Running,2025-10-30 16:04:08,false,\"Weeks\",\"12.27\",\"516\",\"400:00:00\",\"119\",\"129\"\r\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("Activities.csv").path
        #expect(try FitbitSourcesTests.detected(path) == "garmin-activities")
        let out = try FitbitSourcesTests.run("garmin-activities", path, options: "timezone: Europe/Warsaw\n")
        #expect(out.events.count == 1)
        let reasons = out.quarantined.compactMap { $0["reason"] as? String }
        #expect(reasons.count == 4, "\(reasons)")
        #expect(reasons.contains { $0.contains("Distance '5,02' is not a number in this file's format (1,234.5 or --)") })
        #expect(reasons.contains { $0.contains("Time '1:5' is not a duration") })
        #expect(reasons.contains { $0.contains("Date '2025-11-01 99:15:01' is not a date and time") })
        #expect(reasons.contains { $0.contains("Time") && $0.contains("24000") }, "\(reasons)")
    }

    @Test func aRepeatedActivityIsStoredOnceAndAnotherAtItsStartIsQuarantined() throws {
        let header = "Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR,Max HR\r\n"
        let row = "Running,2025-11-06 16:16:43,false,\"Easy Run\",\"12.23\",\"541\",\"00:59:49\",\"124\",\"138\"\r\n"
        let dir = try FitbitSourcesTests.folder(["Activities.csv": header + row + row
            + "Running,2025-11-06 16:16:43,true,\"Race\",\"21.25\",\"1,160\",\"02:08:11\",\"150\",\"174\"\r\n"
            + "Treadmill Running,2025-11-06 16:16:43,false,\"Gym\",\"5.00\",\"300\",\"00:30:00\",\"140\",\"150\"\r\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try FitbitSourcesTests.run("garmin-activities", dir.appendingPathComponent("Activities.csv").path,
                                             options: "timezone: Europe/Warsaw\n")
        // Another sport at the same start is its own event.
        #expect(out.events.map(\.subtype.text) == ["running", "treadmill_running"])
        let reasons = out.quarantined.compactMap { $0["reason"] as? String }
        #expect(reasons == ["another running activity starts at the same time (line 2) with other values: one exercise is kept per type and start"])
        #expect(out.context.warnings.contains { $0.contains("1 row(s) repeat an earlier activity exactly: stored once") })
    }

    @Test func anotherCSVIsNotGarmins() throws {
        let dir = try FitbitSourcesTests.folder(["a.csv": "Activity Date,Activity Type,Elapsed Time,Distance\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(GarminActivitiesSource.detect(try FileSniff.read(path: dir.appendingPathComponent("a.csv").path)) == 0)
    }
}
