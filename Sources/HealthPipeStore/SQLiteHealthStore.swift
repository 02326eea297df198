import HealthPipeCore
import SQLiteStore

/// A HealthPipe store in one SQLite file (the embedded default).
public final class SQLiteHealthStore: HealthStore {
    public let path: String

    public init(path: String) { self.path = path }

    public var name: String { path }
    public var stages: StoreStages {
        StoreStages(source: "sqlite-source", sink: "sqlite", locationKey: "path", location: path, shownLocation: nil)
    }
    public var keepsHealthReports: Bool { true }

    public func storedSettingRows() throws -> [DerivationSettings.StoredStep]? { try DerivationSettingsTable.read(path: path) }
    public func adopt(_ rows: [DerivationSettings.StoredStep]) throws { try DerivationSettingsTable.adopt(rows, path: path) }

    /// SQLite's `derived_pending` lists (subject, day)s of every subject; a refresh takes them all.
    public func hasPendingDays(subjects: [String]?) throws -> Bool { try PendingDaysQuery.any(path: path) }

    public func aimRefresh(_ graph: PipelineGraph, scope: RefreshScope, subjects: [String]?, settings rows: [DerivationSettings.StoredStep]) throws {
        graph.stages(SQLiteSource.self).forEach { $0.scope = scope }
        graph.stages(SQLiteSink.self).forEach { $0.refreshScope = scope; $0.settingsToStore = rows }
    }

    public func reader() throws -> StoreReader { try ChartQueries(path: path) }
    public func allSubjects() throws -> [String] { try StoreSubjects.all(path: path) }
    public func redact(_ text: String) -> String { text }

    public func zonePeriods(subject: String) throws -> [ZoneHistory.Period] { try SubjectZones.periods(subject: subject, path: path) }
    public func setZone(subject: String, zone: String, from: Int64, now: Int64) throws {
        try SubjectZones.set(subject: subject, zone: zone, from: from, now: now, path: path)
    }
    @discardableResult public func adoptZone(subject: String, zone: String, now: Int64) throws -> Bool {
        try SubjectZones.adopt(subject: subject, zone: zone, now: now, path: path)
    }
}
