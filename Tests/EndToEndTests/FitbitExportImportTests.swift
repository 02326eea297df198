import Foundation
import Testing
import ZIPFoundation

/// A whole Fitbit account export — an unpacked folder or its zip — imports in one command, every file
/// by its content; families HealthPipe does not read yet are named in one warning, never a failure.
@Suite struct FitbitExportImportTests {
    static let real = E2E.fixtures.appendingPathComponent("real/fitbit")

    /// `MyFitbitData/Me/…` as the account export lays it out, with an exercise log no format reads yet.
    static func export(in dir: URL) throws -> URL {
        let root = dir.appendingPathComponent("MyFitbitData/Me")
        let activity = root.appendingPathComponent("Physical Activity"), sleep = root.appendingPathComponent("Sleep")
        for d in [activity, sleep] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        for name in ["heart_rate-2022-10-07.json", "resting_heart_rate-2024-03-01.json"] {
            try FileManager.default.copyItem(at: real.appendingPathComponent(name), to: activity.appendingPathComponent(name))
        }
        try E2E.write("[{\n  \"dateTime\" : \"10/07/22 07:00:00\",\n  \"value\" : \"12\"\n},{\n  \"dateTime\" : \"10/07/22 07:01:00\",\n  \"value\" : \"30\"\n}]\n",
                      to: activity.appendingPathComponent("steps-2022-10-07.json"))
        try FileManager.default.copyItem(at: real.appendingPathComponent("sleep-2020-03-31.json"),
                                         to: sleep.appendingPathComponent("sleep-2020-03-31.json"))
        try E2E.write("[{\n  \"logId\" : 1,\n  \"activityName\" : \"Run\",\n  \"duration\" : 1843000\n}]\n",
                      to: activity.appendingPathComponent("exercise-0.json"))
        return dir.appendingPathComponent("MyFitbitData")
    }

    static func expectStored(_ db: URL) {
        #expect(E2E.query(db, "SELECT metric, count(*), round(sum(value), 3) FROM measurements GROUP BY metric ORDER BY metric")
                == [["heart_rate", "360", "31506.0"], ["resting_heart_rate", "2", "109.082"],
                    ["sleep_analysis.asleep_core", "52", "422.5"], ["sleep_analysis.asleep_deep", "9", "158.5"],
                    ["sleep_analysis.asleep_rem", "16", "180.5"], ["sleep_analysis.asleep_unspecified", "11", "177.0"],
                    ["sleep_analysis.awake", "58", "100.0"], ["sleep_analysis.in_bed", "3", "1056.0"],
                    ["sleep_analysis.restless", "11", "17.0"], ["step_count", "2", "42.0"]])
    }

    @Test func aFolderImportsEveryFileByContent() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try Self.export(in: dir)
        let args = ["import", folder.path, "--db", db.path, "--timezone", "America/Los_Angeles"]
        let r = try E2E.run(args)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 file(s) in the folder(s) given are no format HealthPipe reads") && r.stderr.contains("exercise-0.json"))
        #expect(E2E.query(db, "SELECT format FROM imports ORDER BY format").map { $0[0] }
                == ["fitbit-heart-rate", "fitbit-minute-series", "fitbit-resting-heart-rate", "fitbit-sleep"])
        Self.expectStored(db)
        let again = try E2E.run(args)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func itsZipImportsTheSame() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try Self.export(in: dir)
        let zip = dir.appendingPathComponent("MyFitbitData.zip")
        try FileManager.default.zipItem(at: folder, to: zip)
        let r = try E2E.run(["import", zip.path, "--db", db.path, "--timezone", "America/Los_Angeles"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.contains("exercise-0.json"))
        Self.expectStored(db)
    }
}
