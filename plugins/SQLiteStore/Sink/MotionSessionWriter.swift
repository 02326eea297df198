import HealthPipeCore

/// Upserts motion sessions on (subject, device, start_ms), with the seed's local date fields
/// (`MotionSession.localStart`).
final class MotionSessionWriter {
    static let sql = UpsertSQL.make(StoreTables.motionSessions)

    private let upsert: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog) throws {
        self.upsert = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
        self.imports = imports
    }

    func write(_ rows: ArraySlice<MotionSession>) throws {
        let s = upsert
        for m in rows {
            let local = m.localStart
            try symbols.bind(m.subject, to: s, at: 1)
            try symbols.bind(m.device, to: s, at: 2)
            try s.bindInt(3, m.start)
            try symbols.bind(m.source, to: s, at: 4)
            try s.bindInt(5, m.end)
            try s.bindInt(6, m.startSeconds)
            try s.bindInt(7, m.endSeconds)
            try s.bindInt(8, Int64(m.utcOffset))
            try s.bindDouble(9, m.durationSeconds)
            try s.bindDouble(10, m.activeSeconds)
            try s.bindDouble(11, m.average)
            try s.bindDouble(12, m.accomplishment)
            try s.bindInt(13, m.samples)
            try s.bindText(14, m.endReason.rawValue)
            try s.bindInt(15, Int64(local.year))
            try s.bindInt(16, Int64(local.month))
            try s.bindInt(17, Int64(local.day))
            try s.bindText(18, local.time)
            try s.bindInt(19, Int64(local.dayOfWeek))
            try s.bindInt(20, Int64(local.daysInMonth))
            if m.provenance.line > 0 { try s.bindInt(21, m.provenance.line) } else { try s.bindNull(21) }
            let slot = try imports.slot(for: m.provenance.file)
            if slot >= 0 { try s.bindInt(22, imports.id(ofSlot: slot)) } else { try s.bindNull(22) }
            try s.run()
        }
    }
}
