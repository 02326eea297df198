import Foundation
import HealthPipeCore
import HealthPipeStore

/// A pipeline without a zone (no `--timezone`, no top-level `timezone:`) that writes to one SQLite
/// database reads the times its people typed (`health-entry`) on their own clocks, as
/// `healthpipe add` does: the zone histories of the run's subject and of every stage's `subject`
/// are read once from that database. Several databases, or none yet, leave the typed times to need
/// an offset or a zone, and say so.
enum PipelinePersonZones {
    static func settings(_ base: RunSettings, spec: PipelineSpec) -> RunSettings {
        guard base.timezone == nil, spec.timezone == nil else { return base }
        let stores = Set(spec.stages.filter { $0.role == .sink && $0.type == "sqlite" }
            .compactMap { $0.scalarOption("path") }.map { ComponentBuilder.resolve($0, base: base.baseDirectory) })
        guard stores.count == 1, let path = stores.first, FileManager.default.fileExists(atPath: path) else { return base }
        var subjects: Set<String> = [spec.subject ?? base.subject]
        for stage in spec.stages { if let s = stage.scalarOption("subject") { subjects.insert(s) } }
        var settings = base
        let store = HealthStores.at(path)
        for subject in subjects {
            guard let periods = try? store.zonePeriods(subject: subject), !periods.isEmpty else { continue }
            settings.personZones[subject] = ZoneHistory(periods: periods, fallback: TimeZone(secondsFromGMT: 0)!)
        }
        return settings
    }
}
