import HealthPipeCore

/// Upserts events on (subject, kind, subtype, source, start, amount); an empty subtype is stored
/// as '' so the key compares equal on re-import. `amount` (the dose or the carbs) is in the key
/// because two doses in the same minute are two events (real Clarity exports have them).
final class EventWriter {
    /// Bound in the table's column order (`bind`).
    static let insertSQL = UpsertSQL.insertIgnoringConflicts(StoreTables.events)
    static let sql = UpsertSQL.make(StoreTables.events)

    private let db: SQLiteConnection
    private let insert: Statement
    private let upsert: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog
    private let devices: DeviceTable
    /// Kind names interned once, so rows bind them from the symbol cache.
    private let kindSymbols: [Event.Kind: Symbol]

    private let pending: PendingDays
    private let storedEpisode: Statement
    private let pendingFrom: Statement
    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog, devices: DeviceTable, pending: PendingDays) throws {
        self.db = db
        storedEpisode = try db.prepare("""
            SELECT end, utc_offset, flags FROM events WHERE subject = ?1 AND kind = 'episode' AND subtype = ?2 AND source = ?3
               AND start = ?4 AND amount = 0
            """, persistent: true)
        pendingFrom = try db.prepare(Self.pendingFromSQL, persistent: true)
        self.insert = try db.prepare(Self.insertSQL, persistent: true)
        self.upsert = try db.prepare(Self.sql, persistent: true)
        self.pending = pending
        self.symbols = symbols
        self.imports = imports
        self.devices = devices
        self.kindSymbols = Dictionary(uniqueKeysWithValues: Event.Kind.allCases.map { ($0, Symbol($0.rawValue)) })
    }

    /// Offered as a new row first; an event already stored is upserted (changing only what differs)
    /// and its days are contested (see `PendingDays`).
    func write(_ rows: ArraySlice<Event>) throws {
        for e in rows {
            try pending.prepare(e.subject)
            // An episode's days are its span: when a stored one changes (a new end, ended, reopened),
            // the days it spanned before count as changed too.
            let before = e.kind == .episode ? try storedSpan(of: e) : nil
            let slot = try bind(e, to: insert)
            try insert.run()
            var changed = db.changes
            let contested = changed == 0
            if contested {
                _ = try bind(e, to: upsert)
                try upsert.run()
                changed = db.changes
            }
            imports.countNewRows(changed, slot: slot)
            for day in Self.days(of: e) { try pending.note(subject: e.subject, day: day, changed: changed > 0, contested: contested) }
            guard changed > 0, e.kind == .episode else { continue }
            if let before { try noteEpisodeGone(before) }
            if EpisodeSpan.isOpen(e) {
                pending.noteOpenEpisode(subject: e.subject, day: e.localDay)
                try markStoredDays(e.subject.text, from: e.localDay)
            }
        }
    }

    /// The stored row of an episode's key, as it was before this write.
    private func storedSpan(of e: Event) throws -> Event? {
        let s = storedEpisode
        s.reset()
        defer { s.reset() }
        try symbols.bind(e.subject, to: s, at: 1)
        try symbols.bind(e.subtype, to: s, at: 2)
        try symbols.bind(e.source, to: s, at: 3)
        try s.bindInt(4, e.start)
        guard try s.step() else { return nil }
        var old = e
        old.end = s.int(0)
        old.utcOffset = Int32(truncatingIfNeeded: s.int(1))
        old.flags = RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(2)))
        return old
    }

    /// The days an episode row no longer holds (it was changed or deleted) are pending; an open
    /// one flagged every stored day from its start.
    func noteEpisodeGone(_ old: Event) throws {
        for day in Self.days(of: old) { try pending.note(subject: old.subject, day: day, changed: true, contested: true) }
        if EpisodeSpan.isOpen(old) { try markStoredDays(old.subject.text, from: old.localDay) }
    }

    /// Every stored day of subject ?1 from local day ?2 on: the days an open episode flags.
    static let pendingFromSQL = """
        INSERT OR IGNORE INTO derived_pending (subject, day) SELECT DISTINCT subject, day FROM daily_summaries WHERE subject = ?1 AND day >= ?2
        """

    private func markStoredDays(_ subject: String, from day: Int64) throws {
        try pendingFrom.bindText(1, subject)
        try pendingFrom.bindText(2, CivilDate.isoDate(fromDays: day))
        try pendingFrom.run()
    }

    /// The local days whose totals the event counts in: its start day; every day an illness or
    /// stress episode spans — for a marker without an end, every day the longest `episode_length`
    /// could reach (an open episode's later days are marked by the entry writer).
    static func days(of e: Event) -> ClosedRange<Int64> {
        guard e.kind == .episode, EpisodeKinds.marksDays(e.subtype) else { return e.localDay...e.localDay }
        if EpisodeSpan.isMarker(e) { return e.localDay...(e.localDay + EpisodeSpan.markerMaxDays) }
        let last = LocalDays.day(e.end, e.utcOffset)
        return e.localDay...max(e.localDay, last)
    }

    /// Binds every column; returns the import slot of the event's file.
    private func bind(_ e: Event, to s: Statement) throws -> Int32 {
        try symbols.bind(e.subject, to: s, at: 1)
        try symbols.bind(kindSymbols[e.kind] ?? Symbol(e.kind.rawValue), to: s, at: 2)
        try symbols.bind(e.subtype, to: s, at: 3)
        try symbols.bind(e.source, to: s, at: 4)
        try s.bindInt(5, e.start)
        try s.bindDouble(6, e.insulin ?? e.carbs ?? 0)
        try s.bindInt(7, e.end)
        try s.bindInt(8, Int64(e.utcOffset))
        try s.bindDouble(9, e.carbs)
        try s.bindDouble(10, e.protein)
        try s.bindDouble(11, e.fat)
        try s.bindDouble(12, e.insulin)
        try symbols.bindOrNull(e.intensity, to: s, at: 13)
        try s.bindText(14, e.note)
        try s.bindInt(15, Int64(e.flags.rawValue))
        let slot = try imports.slot(for: e.provenance.file)
        try imports.bindOrigin(slot: slot, line: e.provenance.line, to: s, at: 16)
        try s.bindText(18, e.metadata)
        try devices.bind(e.device, to: s, at: 19)
        return slot
    }
}
