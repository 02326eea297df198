import HealthPipeCore
import PostgresStore

/// What every HealthPipe store does, whether it is a SQLite file or a PostgreSQL database: keep the
/// settings its derived rows follow, tell which derived rows are out of date and aim a refresh at
/// them, and answer the views' reads. Batches are written by the store's sink stage (idempotent
/// upserts keyed on each record's identity); the derived-data rule over any store is
/// `StoreDerivation`. A library user keeps a database exact through this protocol alone.
public protocol HealthStore: AnyObject {
    /// How messages name the store (a PostgreSQL password never appears).
    var name: String { get }
    /// The pipeline stages that read and write this store, and the option that locates it.
    var stages: StoreStages { get }
    /// Whether the store keeps health reports (then their daily summaries are a derivation step).
    var keepsHealthReports: Bool { get }

    /// The stored derivation settings; nil when the store keeps none yet (or does not exist).
    func storedSettingRows() throws -> [DerivationSettings.StoredStep]?
    /// Stores `rows` as the settings of a store that has none (creating the store if needed).
    func adopt(_ rows: [DerivationSettings.StoredStep]) throws
    /// True when derived rows of `subjects` (nil: of anyone) are not up to date with the readings.
    func hasPendingDays(subjects: [String]?) throws -> Bool
    /// Aims the store stages of a refresh graph at the pending days of `subjects` (widened by
    /// `scope`) and has its sink store `rows` as the settings, in the transaction of the derived rows.
    func aimRefresh(_ graph: PipelineGraph, scope: RefreshScope, subjects: [String]?, settings rows: [DerivationSettings.StoredStep]) throws

    /// The views' reads (an existing store only: a missing one is an error, never an empty store).
    func reader() throws -> StoreReader
    /// Every subject the store holds anything for, sorted.
    func allSubjects() throws -> [String]
    /// `text` without secrets (a PostgreSQL password in an error message).
    func redact(_ text: String) -> String

    /// The subject's zone history (`subject_zones`), oldest first; none for a store that does not exist yet.
    func zonePeriods(subject: String) throws -> [ZoneHistory.Period]
    /// Sets the subject's zone from `from` on (creating the store if needed).
    func setZone(subject: String, zone: String, from: Int64, now: Int64) throws
    /// Gives the subject `zone` since always when they have none; true when it did.
    @discardableResult func adoptZone(subject: String, zone: String, now: Int64) throws -> Bool
}

/// The component types of a store's source and sink, and the option and value that point them at it.
public struct StoreStages: Sendable {
    public var source: String, sink: String
    public var locationKey: String, location: String
    /// How errors and listings name the stages' location when it is not the location itself (a
    /// PostgreSQL connection without its password); nil for a path.
    public var shownLocation: String?
}

/// Opens stores by what the user names: a postgresql:// URL or a SQLite path.
public enum HealthStores {
    /// The store at `location` (nothing is opened until a method needs it).
    public static func at(_ location: String) -> HealthStore {
        PostgresURL.isURL(location) ? PostgresHealthStore(url: PostgresURL(location)) : SQLiteHealthStore(path: location)
    }
}

extension PipelineGraph {
    /// The graph's stages of one type, in node order.
    func stages<T>(_ type: T.Type) -> [T] { nodes.compactMap { $0.stage as? T } }
}
