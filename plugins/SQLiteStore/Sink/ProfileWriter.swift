import HealthPipeCore

/// Upserts one subject_profiles row per (subject, source); a newer export's values replace older ones.
final class ProfileWriter {
    static let sql = UpsertSQL.make(StoreTables.subjectProfiles)

    private let upsert: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog) throws {
        upsert = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
        self.imports = imports
    }

    func write(_ rows: ArraySlice<SubjectProfile>) throws {
        let s = upsert
        for p in rows {
            try symbols.bind(p.subject, to: s, at: 1)
            try symbols.bind(p.source, to: s, at: 2)
            try s.bindText(3, p.dateOfBirth)
            try s.bindText(4, p.biologicalSex)
            try s.bindText(5, p.bloodType)
            try s.bindText(6, p.skinType)
            try s.bindText(7, p.attributes)
            let slot = try imports.slot(for: p.provenance.file)
            if slot >= 0 { try s.bindInt(8, imports.id(ofSlot: slot)) } else { try s.bindNull(8) }
            try s.run()
        }
    }
}
