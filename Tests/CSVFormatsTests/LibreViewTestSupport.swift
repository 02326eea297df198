import Foundation
import HealthPipeCore
import HealthPipeTestSupport
@testable import CSVFormats

/// Helpers shared by the LibreView and CareLink tests: write inline fixtures to temporary files and
/// find the repository's sample files (a source is run into memory by `SourceRunner`).
enum SourceHarness {
    static let repoRoot = Repository.root

    static func sample(_ relative: String) -> String { repoRoot.appendingPathComponent("samples/" + relative).path }

    static func options(_ path: String, zone: String? = "Europe/London") -> CSVCommonOptions {
        CSVCommonOptions(path: path, zone: zone.flatMap(ZoneResolver.timeZone(named:)), subject: "tester")
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
