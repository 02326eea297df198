import Foundation
import HealthPipeCore

/// `derivation_settings`: the settings a database's derived rows are computed with, one row per step.
public enum DerivationSettingsTable {
    public typealias Row = DerivationSettings.StoredStep

    static func read(_ db: SQLiteConnection) throws -> [Row] {
        let s = try db.prepare("SELECT step, options, fingerprint FROM derivation_settings ORDER BY step")
        var rows: [Row] = []
        while try s.step() { rows.append(Row(step: s.text(0) ?? "", options: s.text(1) ?? "", fingerprint: s.text(2) ?? "")) }
        return rows
    }

    /// Replaces the stored settings; call inside the transaction whose derived rows follow them.
    static func replace(_ rows: [Row], in db: SQLiteConnection) throws {
        try db.execute("DELETE FROM derivation_settings")
        let insert = try db.prepare("INSERT INTO derivation_settings (step, options, fingerprint) VALUES (?1, ?2, ?3)")
        for r in rows {
            try insert.bindText(1, r.step)
            try insert.bindText(2, r.options)
            try insert.bindText(3, r.fingerprint)
            try insert.run()
        }
    }

    /// The stored settings of a database file, without changing it; nil when the file does not
    /// exist yet or has no settings (a new database, or one made before schema version 7).
    public static func read(path: String) throws -> [Row]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        guard try Migrator.version(of: db) >= SchemaV7.migration.version else { return nil }
        let rows = try read(db)
        return rows.isEmpty ? nil : rows
    }

    /// Stores settings in a database that has none (creating and migrating it if needed).
    public static func adopt(_ rows: [Row], path: String) throws {
        try SQLiteSink.createParentDirectory(of: path)
        let db = try SQLiteSchema.open(path: path)
        try db.transaction {
            if try read(db).isEmpty { try replace(rows, in: db) }
        }
    }
}
