import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
import JSONFormats

/// Every Nightscout document accounted for (docs/reliability.md, "Every row accounted for"): each
/// counted under its type (an entry's `type`, a treatment's `eventType`, devicestatus, profile) as
/// stored, quarantined or skipped. Before, JSON sources kept no per-type counts: an entry of an
/// unknown `type` without a value was skipped as a calibration, with a value read as a CGM reading;
/// a treatment of an unknown eventType landed as a note without a word; none changed the exit status.
@Suite struct NightscoutRowAccountingTests {
    static let real = ["nightscout-loop-entries.json", "nightscout-600series-entries-mongoexport.json",
                       "nightscout-loop-treatments.json", "nightscout-aaps-treatments.json", "nightscout-trio-treatments.json",
                       "nightscout-xdrip4ios-treatments.json", "nightscout-600series-treatments-mongoexport.json",
                       "nightscout-600series-devicestatus-mongoexport.json"]

    /// The documents of a file counted independently: an array's elements, or a mongoexport's lines.
    static func documents(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] { return array }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    static func run(_ path: String) throws -> SourceOutput {
        try SourceRunner.run(try SourceRunner.build(nightscoutComponent, path: path))
    }

    static func write(_ name: String, _ docs: [[String: Any]]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-ns-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: docs, options: [.sortedKeys]).write(to: url)
        return url.path
    }

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? { out.input.rowTypes.first { $0.type == name } }

    @Test(arguments: real)
    func theRealFilesAddUpAndEveryTypeIsKnown(_ file: String) throws {
        let path = Repository.path("Tests/Fixtures/real/nightscout/\(file)")
        let out = try Self.run(path)
        let docs = Int64(try Self.documents(path).count)
        #expect(out.input.accounted)
        #expect(out.input.stored > 0)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == docs)
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == docs)
        #expect(out.input.rowTypes.allSatisfy { $0.known }, "\(out.input.rowTypes.filter { !$0.known })")
        #expect(!out.context.warnings.contains { $0.contains("neither maps nor lists") })
    }

    @Test func theLoopEntriesCountPerType() throws {
        let out = try Self.run(Repository.path("Tests/Fixtures/real/nightscout/nightscout-loop-entries.json"))
        #expect(type(out, "sgv") == RowTypeCount(type: "sgv", stored: 72))
    }

    /// An unknown entry type is quarantined, counted and warned; `cal` and `sensor` are skipped as not data.
    @Test func entriesOfAnUnknownTypeAreQuarantinedCountedAndWarned() throws {
        var docs = try Self.documents(Repository.path("Tests/Fixtures/real/nightscout/nightscout-loop-entries.json"))
        let real = docs.count
        let date = 1_757_890_800_312.0
        docs.append(["type": "rawbg", "sgv": 140, "date": date + 1000, "device": "xDrip-DexcomG5"])
        docs.append(["type": "rawbg", "date": date + 2000])
        docs.append(["type": "sensor", "date": date + 3000, "filtered": 131_776, "unfiltered": 129_888, "rssi": 188])
        docs.append(["type": "cal", "date": date + 4000, "slope": 850, "intercept": 31_000, "scale": 1])
        docs.append(["type": "sgv", "date": date + 5000])  // a reading without its value: quarantined, never a calibration
        let out = try Self.run(try Self.write("entries.json", docs))
        #expect(type(out, "rawbg") == RowTypeCount(type: "rawbg", quarantined: 2, known: false))
        #expect(type(out, "sensor") == RowTypeCount(type: "sensor", skipped: 1))
        #expect(type(out, "cal") == RowTypeCount(type: "cal", skipped: 1))
        #expect(type(out, "sgv") == RowTypeCount(type: "sgv", stored: 72, quarantined: 1))
        #expect(out.input.stored + out.input.rejected + out.input.skipped == Int64(real + 5))
        #expect(out.quarantined.count == 3)
        #expect(out.quarantined.contains { ($0["reason"] as? String)?.contains("entry type 'rawbg'") == true })
        #expect(out.context.warnings.contains { $0.contains("2 rows of type 'rawbg'") }, "\(out.context.warnings)")
        #expect(!out.measurements.contains { $0.value == 140 })
    }

    /// A treatment of an eventType no uploader writes is kept as a note, counted as unknown and warned.
    @Test func treatmentsOfAnUnknownEventTypeAreKeptCountedAndWarned() throws {
        var docs = try Self.documents(Repository.path("Tests/Fixtures/real/nightscout/nightscout-trio-treatments.json"))
        let real = docs.count
        docs.append(["eventType": "Pump Alarm", "created_at": "2025-12-01T22:40:00.000Z", "notes": "occlusion", "enteredBy": "Trio"])
        let out = try Self.run(try Self.write("treatments.json", docs))
        #expect(type(out, "Pump Alarm") == RowTypeCount(type: "Pump Alarm", stored: 1, known: false))
        #expect(type(out, "Temp Basal") == RowTypeCount(type: "Temp Basal", stored: 22))
        #expect(out.events.contains { $0.note == "occlusion" })
        #expect(out.input.stored + out.input.rejected + out.input.skipped == Int64(real + 1))
        #expect(out.context.warnings.contains { $0.contains("1 row of type 'Pump Alarm'") }, "\(out.context.warnings)")
    }

    /// A device status with none of the values HealthPipe reads is skipped, not stored.
    @Test func aStatusWithNothingReadIsSkipped() throws {
        let path = try Self.write("devicestatus.json", [
            ["created_at": "2025-12-01T22:40:00.000Z", "device": "loop://iPhone", "loop": ["iob": ["iob": 1.25]]],
            ["created_at": "2025-12-01T22:45:00.000Z", "device": "loop://iPhone", "loop": ["predicted": ["values": [120, 118]]]],
        ])
        let out = try Self.run(path)
        #expect(type(out, "devicestatus") == RowTypeCount(type: "devicestatus", stored: 1, skipped: 1))
    }
}
