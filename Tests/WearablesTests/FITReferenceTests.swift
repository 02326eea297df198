import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// HealthPipe's own FIT decoder against fitparse on the same real files (Tests/Fixtures/real/fit:
/// reference.py decodes them with fitparse into reference.json): the messages by type, every record
/// series (rows, sum, first and last value), the positions, the sessions, the monitoring steps and
/// heart rate, the wearer's offset; and the files fitparse refuses are read as far as they are whole,
/// the rest quarantined with the reason.
@Suite struct FITReferenceTests {
    static let folder = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/fit")
    /// Read on each use: JSON objects are not Sendable, so no static holds them.
    static var reference: [[String: Any]] {
        let data = FileManager.default.contents(atPath: folder.appendingPathComponent("reference.json").path)!
        return (try! JSONSerialization.jsonObject(with: data) as! [String: Any])["files"] as! [[String: Any]]
    }
    static func file(_ name: String) -> [String: Any] { reference.first { $0["file"] as? String == name }! }
    static var decodable: [String] { reference.filter { $0["error"] == nil }.map { $0["file"] as! String } }

    static func run(_ name: String) throws -> SourceOutput {
        let path = folder.appendingPathComponent(name).path
        #expect(try FitbitSourcesTests.detected(path) == "garmin-fit")
        return try FitbitSourcesTests.run("garmin-fit", path)
    }

    /// The messages fitparse names alike (HealthPipe names the ones it reads or skips by purpose, others unknown_N).
    static let named: Set<String> = ["file_id", "session", "lap", "record", "event", "device_info", "activity", "file_creator",
                                     "monitoring", "hrv", "monitoring_info", "hr", "field_description", "developer_data_id"]

    @Test(arguments: decodable)
    func decodesTheSameRecordsAsFitparse(_ name: String) throws {
        let want = Self.file(name), out = try Self.run(name)
        #expect(out.quarantineLines.isEmpty, "\(out.quarantineLines.prefix(3))")
        #expect(out.input.rowsRead == (want["messages"] as! NSNumber).int64Value)
        let types = Dictionary(uniqueKeysWithValues: out.input.rowTypes.map { ($0.type, $0.rows) })
        for (type, count) in want["by_name"] as! [String: NSNumber] where Self.named.contains(type) {
            #expect(types[type] == count.int64Value, "\(name): \(type)")
        }

        // Every record series: one value per time (a later message at the same time wins, as in fitparse).
        let offset = Int32((want["utc_offset"] as? NSNumber)?.intValue ?? 0)
        let records = want["records"] as! [String: [String: NSNumber]]
        let monitoring = want["monitoring"] as? [String: Any]
        for metric in ["heart_rate", "speed", "cadence", "power", "altitude"] {
            var byTime: [Int64: Double] = [:]
            for m in out.measurements where m.metric == Symbol(metric) { byTime[m.start] = m.value }
            let expected = records[metric] ?? (metric == "heart_rate" ? (monitoring?["heart_rate"] as? [String: NSNumber]) : nil)
            guard let expected else { #expect(byTime.isEmpty, "\(name): \(metric) stored, fitparse has none"); continue }
            let times = byTime.keys.sorted()
            #expect(times.count == expected["count"]!.intValue, "\(name): \(metric)")
            #expect(abs(byTime.values.reduce(0, +) - expected["sum"]!.doubleValue) < 1e-6 * max(1, expected["sum"]!.doubleValue), "\(name): \(metric)")
            #expect(abs(byTime[times.first!]! - expected["first"]!.doubleValue) < 1e-9, "\(name): first \(metric)")
            #expect(abs(byTime[times.last!]! - expected["last"]!.doubleValue) < 1e-9, "\(name): last \(metric)")
        }
        #expect(out.measurements.allSatisfy { $0.utcOffset == offset }, "\(name): the file's own offset")

        let points = out.batches.flatMap(\.routes).flatMap(\.points)
        #expect(Set(points.map(\.time)).count == (want["positions"] as! NSNumber).intValue)

        let sessions = want["sessions"] as! [[String: Any]]
        #expect(out.events.count == sessions.count)
        for (e, s) in zip(out.events.sorted { $0.start < $1.start }, sessions) {
            #expect(e.kind == .exercise && e.subtype == Symbol(s["sport"] as! String))
            #expect(e.start == (s["start"] as! NSNumber).int64Value)
            let elapsed = (s["elapsed_s"] as? NSNumber)?.doubleValue ?? 0
            #expect(e.end - e.start == Int64(elapsed.rounded()))
            let meta = try JSONSerialization.jsonObject(with: Data(e.metadata!.utf8)) as! [String: Any]
            func same(_ key: String, _ ref: String, _ scale: Double = 1) {
                let got = (meta[key] as? NSNumber)?.doubleValue, exp = (s[ref] as? NSNumber).map { $0.doubleValue / scale }
                #expect(got.map { abs($0 - exp!) < 1e-9 } ?? (exp == nil), "\(name) session \(key): \(String(describing: got)) vs \(String(describing: exp))")
            }
            same("distance_km", "distance_m", 1000)
            same("energy_kcal", "energy_kcal")
            same("avg_heart_rate", "avg_heart_rate")
            same("max_heart_rate", "max_heart_rate")
            same("duration_min", "timer_s", 1 / 60.0 * 3600)
        }

        let steps = out.measurements.filter { $0.metric == Symbol("step_count") }
        if let s = monitoring?["step_count"] as? [String: NSNumber] {
            #expect(Set(steps.map { "\($0.start)-\($0.end)" }).count == s["count"]!.intValue)
            #expect(steps.reduce(0) { $0 + $1.value } == s["sum"]!.doubleValue)
            // The device's own summary of the day (skipped as a row) says the same total.
            #expect(steps.reduce(0) { $0 + $1.value } == (monitoring?["device_day_total_steps"] as! NSNumber).doubleValue)
        } else {
            #expect(steps.isEmpty)
        }
    }

    /// Two chained FIT files, the second's CRC wrong: the first is stored as fitparse reads it alone,
    /// every message of the second quarantined with the reason; nothing of it is stored.
    @Test func aDamagedChainedFileIsQuarantinedWhole() throws {
        let sections = Self.file("activity-activity-filecrc.fit")["sections"] as! [[String: Any]]
        let good = (sections[0]["messages"] as! NSNumber).int64Value
        #expect((sections[1]["error"] as! String).contains("CRC"))
        let out = try Self.run("activity-activity-filecrc.fit")
        #expect(out.input.stored + out.input.skipped == good)
        #expect(out.quarantined.count == Int(good))  // the second file is a copy of the first, damaged
        #expect(out.quarantined.allSatisfy { ($0["reason"] as! String).contains("does not match its bytes") })
        #expect(out.measurements.allSatisfy { $0.provenance.line < 771 })
    }

    /// A FIT file cut off inside its last message: the whole messages before the cut are read (the
    /// file is the first FIT file of the chained one above, 3 bytes short), the cut-off bytes quarantined.
    @Test func aCutOffFileKeepsItsWholeMessages() throws {
        let whole = (Self.file("activity-activity-filecrc.fit")["sections"] as! [[String: Any]])[0]["messages"] as! NSNumber
        let out = try Self.run("activity-unexpected-eof.fit")
        #expect(out.input.stored + out.input.skipped == whole.int64Value - 1)
        #expect(out.quarantined.count == 1)
        #expect((out.quarantined.first?["reason"] as? String)?.contains("cut off") == true)
        #expect(out.context.warnings.contains { $0.contains("cut off") })
    }

    /// Bytes after a FIT file that are no FIT header: the file is read, the bytes quarantined.
    @Test func bytesAfterTheLastFileThatAreNoHeaderAreQuarantined() throws {
        let sections = Self.file("activity-settings-corruptheader.fit")["sections"] as! [[String: Any]]
        let out = try Self.run("activity-settings-corruptheader.fit")
        #expect(out.input.stored + out.input.skipped == (sections[0]["messages"] as! NSNumber).int64Value)
        #expect(out.quarantined.count == 1)
        #expect((out.quarantined.first?["reason"] as? String)?.contains("not another FIT file's header") == true)
    }

    /// The reference itself is what fitparse decodes now (skipped where fitparse is not installed).
    @Test func referenceIsFitparses() throws {
        func python(_ args: [String]) throws -> (status: Int32, output: String) {
            let p = Process(), pipe = Pipe()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3"] + args
            p.standardOutput = pipe
            p.standardError = pipe
            try p.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        guard try python(["-c", "import fitparse"]).status == 0 else { return }
        let r = try python([Self.folder.appendingPathComponent("reference.py").path, "--check"])
        #expect(r.status == 0, "\(r.output)")
    }
}
