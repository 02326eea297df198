import HealthPipeCore
import PostgresStore

/// A HealthPipe store in a PostgreSQL database (shared stores, cohorts: docs/scale-out.md).
public final class PostgresHealthStore: HealthStore {
    public let url: PostgresURL

    public init(url: PostgresURL) { self.url = url }

    public var name: String { url.shown }
    public var stages: StoreStages {
        StoreStages(source: "postgres-source", sink: "postgres", locationKey: "url", location: url.conninfo, shownLocation: url.shown)
    }
    /// Health reports live in the SQLite store only.
    public var keepsHealthReports: Bool { false }

    public func storedSettingRows() throws -> [DerivationSettings.StoredStep]? { try PostgresDerivationSettings.read(url: url) }
    public func adopt(_ rows: [DerivationSettings.StoredStep]) throws { try PostgresDerivationSettings.adopt(rows, url: url) }

    /// Only the subjects a run wrote are looked at: a shared store's other writers refresh their own.
    public func hasPendingDays(subjects: [String]?) throws -> Bool {
        try !PostgresPendingDays.read(url: url, subjects: subjects ?? allSubjects()).isEmpty
    }

    public func aimRefresh(_ graph: PipelineGraph, scope: RefreshScope, subjects: [String]?, settings rows: [DerivationSettings.StoredStep]) throws {
        var days = try PostgresPendingDays.read(url: url, subjects: subjects ?? allSubjects())
        days.marginDays = scope.marginDays
        days.wholeSubjects = scope.wholeSubjects
        graph.stages(PostgresSource.self).forEach { $0.pending = days }
        graph.stages(PostgresSink.self).forEach { $0.pending = days; $0.settingsToStore = rows }
    }

    public func reader() throws -> StoreReader { try PGChartQueries(url: url) }
    public func allSubjects() throws -> [String] { try PGChartQueries(url: url).allSubjects() }
    public func redact(_ text: String) -> String { url.redact(text) }

    public func zonePeriods(subject: String) throws -> [ZoneHistory.Period] { try PGSubjectZones.periods(subject: subject, url: url) }
    public func setZone(subject: String, zone: String, from: Int64, now: Int64) throws {
        try PGSubjectZones.set(subject: subject, zone: zone, from: from, now: now, url: url)
    }
    @discardableResult public func adoptZone(subject: String, zone: String, now: Int64) throws -> Bool {
        try PGSubjectZones.adopt(subject: subject, zone: zone, now: now, url: url)
    }
}
