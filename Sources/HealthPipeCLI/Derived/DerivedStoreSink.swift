import HealthPipeCore
import PostgresStore
import SQLiteStore

/// A sink whose store keeps derived rows that follow the store's settings: the SQLite file and the
/// PostgreSQL database work alike (`StoreDerivation.prepare`).
protocol DerivedStoreSink: AnyObject {
    /// How messages name the store (a PostgreSQL password never appears).
    var storeName: String { get }
    var rewritesDerived: Bool { get }
    var trustedSteps: Set<String> { get set }
    /// The stored settings; nil when the store keeps none yet.
    func storedSettings() throws -> [DerivationSettingsTable.Row]?
    func adopt(_ rows: [DerivationSettingsTable.Row]) throws
}

extension SQLiteSink: DerivedStoreSink {
    var storeName: String { path }
    var rewritesDerived: Bool { replaceDerived }
    func storedSettings() throws -> [DerivationSettingsTable.Row]? { try DerivationSettingsTable.read(path: path) }
    func adopt(_ rows: [DerivationSettingsTable.Row]) throws { try DerivationSettingsTable.adopt(rows, path: path) }
}

extension PostgresSink: DerivedStoreSink {
    var storeName: String { url.shown }
    var rewritesDerived: Bool { replaceDerived }
    func storedSettings() throws -> [DerivationSettingsTable.Row]? {
        try PostgresDerivationSettings.read(url: url)?.map { .init(step: $0.step, options: $0.options, fingerprint: $0.fingerprint) }
    }
    func adopt(_ rows: [DerivationSettingsTable.Row]) throws {
        try PostgresDerivationSettings.adopt(rows.map { ($0.step, $0.options, $0.fingerprint) }, url: url)
    }
}
