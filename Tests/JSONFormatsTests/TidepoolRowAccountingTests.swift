import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
import JSONFormats

/// Every Tidepool datum accounted for (docs/reliability.md, "Every row accounted for"): counted under
/// its `type` as stored, quarantined, or skipped (a type of the data model HealthPipe does not import:
/// upload, pumpSettings…; a correction-only wizard). Before, a type outside the data model was skipped
/// with the data model's, counted only in a warning, and the run exited 0.
@Suite struct TidepoolRowAccountingTests {
    static let sample = Repository.path("samples/tidepool/tidepool_export.json")

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? { out.input.rowTypes.first { $0.type == name } }

    @Test func theSampleAddsUpPerType() throws {
        let out = try SourceRunner.run(try SourceRunner.build(tidepoolComponent, path: Self.sample))
        let docs = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sample))) as! [[String: Any]]
        #expect(out.input.accounted)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == Int64(docs.count))
        #expect(out.input.rowTypes.allSatisfy { $0.known })
        #expect(type(out, "upload") == RowTypeCount(type: "upload", skipped: 1))
        #expect(type(out, "pumpSettings") == RowTypeCount(type: "pumpSettings", skipped: 1))
        #expect(type(out, "basal") == RowTypeCount(type: "basal", stored: 4))  // a fifth "basal" is a segment's `suppressed`
        #expect(type(out, "cbg")?.rows == 25)
    }

    @Test func aTypeOutsideTheDataModelIsQuarantinedCountedAndWarned() throws {
        var docs = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sample))) as! [[String: Any]]
        let real = docs.count
        var extra = docs.first { $0["type"] as? String == "smbg" }!
        extra["type"] = "glucoseForecast"
        docs.append(extra)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-tp-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("tidepool.json").path
        try JSONSerialization.data(withJSONObject: docs).write(to: URL(fileURLWithPath: path))
        let out = try SourceRunner.run(try SourceRunner.build(tidepoolComponent, path: path))
        #expect(type(out, "glucoseForecast") == RowTypeCount(type: "glucoseForecast", quarantined: 1, known: false))
        #expect(out.input.stored + out.input.rejected + out.input.skipped == Int64(real + 1))
        #expect(out.quarantined.contains { ($0["reason"] as? String)?.contains("'glucoseForecast' is not one of Tidepool's data model") == true })
        #expect(out.context.warnings.contains { $0.contains("1 row of type 'glucoseForecast'") }, "\(out.context.warnings)")
    }
}
