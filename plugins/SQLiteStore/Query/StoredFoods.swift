/// The person's food database (`foods`): Nightscout's `food` documents, kept whole as their client
/// sent them, listed in the order they were first stored (MongoDB's natural order).
public enum StoredFoods {
    /// Stores each document under its id (replacing what that id held, keeping its place in the list).
    public static func save(path: String, subject: String, _ documents: [(id: String, json: String)], now: Int64) throws {
        guard !documents.isEmpty else { return }
        let db = try SQLiteSchema.open(path: path)
        try db.transaction {
            let s = try db.prepare("""
                INSERT INTO foods (subject, id, document, updated_at) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (subject, id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at
                """)
            for d in documents {
                try s.bindText(1, subject)
                try s.bindText(2, d.id)
                try s.bindText(3, d.json)
                try s.bindInt(4, now)
                try s.run()
            }
        }
    }

    /// Deletes the document `id`; false when it was not stored.
    public static func delete(path: String, subject: String, id: String) throws -> Bool {
        let db = try SQLiteSchema.open(path: path)
        let s = try db.prepare("DELETE FROM foods WHERE subject = ?1 AND id = ?2")
        try s.bindText(1, subject)
        try s.bindText(2, id)
        try s.run()
        return db.changes > 0
    }
}

extension NightscoutRows {
    /// The subject's food documents (JSON text), in the order they were first stored; none in a
    /// database from before the food database was kept.
    public func foods(subject: String) throws -> [String] {
        let table = try chartDB.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'foods'")
        guard try table.step() else { return [] }
        let s = try chartDB.prepare("SELECT document FROM foods WHERE subject = ?1 ORDER BY rowid")
        try s.bindText(1, subject)
        var out: [String] = []
        while try s.step() { if let text = s.text(0) { out.append(text) } }
        return out
    }
}
