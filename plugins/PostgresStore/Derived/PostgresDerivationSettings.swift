import HealthPipeCore

/// The settings a PostgreSQL store's derived rows follow, one row per step, as SQLite's
/// `derivation_settings` keeps them: the step, its options as a YAML flow mapping and its fingerprint.
public enum PostgresDerivationSettings {
    public typealias Row = DerivationSettings.StoredStep

    static func read(_ db: PGConnection) throws -> [Row] {
        let rows = try db.query("SELECT step, options, fingerprint FROM derivation_settings ORDER BY step")
        return (0..<rows.count).map { Row(step: rows.text($0, 0) ?? "", options: rows.text($0, 1) ?? "", fingerprint: rows.text($0, 2) ?? "") }
    }

    /// The store's settings; nil when it keeps none yet (or has no HealthPipe tables).
    public static func read(url: PostgresURL) throws -> [Row]? {
        let db = try PostgresSchema.open(url)
        let rows = try read(db)
        return rows.isEmpty ? nil : rows
    }

    /// Stores `rows` as the settings of a store that has none (another process may have just done so).
    public static func adopt(_ rows: [Row], url: PostgresURL) throws {
        let db = try PostgresSchema.open(url)
        try db.transaction {
            try db.execute("LOCK TABLE derivation_settings IN EXCLUSIVE MODE")
            guard try db.query("SELECT count(*) FROM derivation_settings").int(0, 0) == 0 else { return }
            try insert(rows, db)
        }
    }

    /// Replaces the settings, inside the caller's transaction.
    static func replace(_ rows: [Row], in db: PGConnection) throws {
        try db.execute("DELETE FROM derivation_settings")
        try insert(rows, db)
    }

    private static func insert(_ rows: [Row], _ db: PGConnection) throws {
        for r in rows {
            try db.query("INSERT INTO derivation_settings (step, options, fingerprint) VALUES ($1, $2, $3)", [r.step, r.options, r.fingerprint])
        }
    }
}
