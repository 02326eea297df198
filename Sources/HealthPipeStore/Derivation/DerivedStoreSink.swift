import HealthPipeCore
import PostgresStore
import SQLiteStore

/// A sink whose store keeps derived rows that follow the store's settings: the SQLite file and the
/// PostgreSQL database work alike (`StoreDerivation.prepare`, `StoreDerivation.refreshAfter`).
public protocol DerivedStoreSink: AnyObject {
    /// The store the sink writes.
    var store: HealthStore { get }
    /// A `reaggregate` sink: it replaces derived rows instead of adding readings.
    var rewritesDerived: Bool { get }
    var trustedSteps: Set<String> { get set }
    /// The subjects the finished run wrote (nil: not known, the store's refresh looks at all).
    var subjectsWritten: [String]? { get }
    /// Stores `rows` as the settings, in the transaction that replaces the derived rows.
    func storeSettings(_ rows: [DerivationSettings.StoredStep])
}

extension SQLiteSink: DerivedStoreSink {
    public var store: HealthStore { SQLiteHealthStore(path: path) }
    public var rewritesDerived: Bool { replaceDerived }
    public var subjectsWritten: [String]? { nil }
    public func storeSettings(_ rows: [DerivationSettings.StoredStep]) { settingsToStore = rows }
}

extension PostgresSink: DerivedStoreSink {
    public var store: HealthStore { PostgresHealthStore(url: url) }
    public var rewritesDerived: Bool { replaceDerived }
    public var subjectsWritten: [String]? { writtenSubjects }
    public func storeSettings(_ rows: [DerivationSettings.StoredStep]) { settingsToStore = rows }
}
