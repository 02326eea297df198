import Foundation
import HealthPipeCore
import HealthPipeTestSupport
@testable import CSVFormats

/// Helpers shared by the LibreView and CareLink tests: run a source into memory, write inline
/// fixtures to temporary files, and find the repository's sample files.
enum SourceHarness {
    struct Result {
        var measurements: [HealthPipeCore.Measurement] = []
        var events: [Event] = []
        var input: InputFileInfo
        var context: StageContext
        /// The dead-letter file's lines, parsed.
        var quarantined: [[String: Any]]
    }

    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func sample(_ relative: String) -> String { repoRoot.appendingPathComponent("samples/" + relative).path }

    static func options(_ path: String, zone: String? = "Europe/London") -> CSVCommonOptions {
        CSVCommonOptions(path: path, zone: zone.flatMap(ZoneResolver.timeZone(named:)), subject: "tester")
    }

    static func run(_ source: any Source, policy: ErrorPolicy = .quarantine) throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-libre-\(UUID().uuidString)")
        let qpath = dir.appendingPathComponent("quarantine.ndjson").path
        let quarantine = QuarantineWriter(path: qpath)
        let context = StageContext.forTesting("test", name: "in", policy: policy, quarantine: quarantine)
        var batches: [RecordBatch] = []
        try source.run(context: context) { batches.append($0) }
        quarantine.close()
        let lines = (try? String(contentsOfFile: qpath, encoding: .utf8))?.split(separator: "\n") ?? []
        let parsed = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try? FileManager.default.removeItem(at: dir)
        return Result(measurements: batches.flatMap(\.measurements), events: batches.flatMap(\.events),
                      input: context.inputs[0], context: context, quarantined: parsed)
    }

    /// Writes `text` to a fresh temporary file and returns its path.
    static func file(_ text: String, name: String = "export.csv") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-libre-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// UTC epoch seconds of a civil date-time given in UTC.
    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int64 {
        CivilDate.days(year: y, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    }
}
