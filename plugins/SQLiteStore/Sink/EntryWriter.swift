import HealthPipeCore

/// Stores manual entries: the `manual_entries` row of each (subject, id) and the event row it owns
/// (source `manual`). An entry written again under its id replaces its event — the old row is
/// deleted when its natural key changed (another time, dose or kind) — and an entry that now owns
/// another id's event row takes it over. The days of both rows are pending; an open episode makes
/// every stored day from its start pending, since it flags them until it is ended.
final class EntryWriter {
    private let db: SQLiteConnection
    private let events: EventWriter
    private let pending: PendingDays
    private let selectEntry: Statement, upsertEntry: Statement, releaseEvent: Statement, deleteEvent: Statement

    init(db: SQLiteConnection, events: EventWriter, pending: PendingDays) throws {
        self.db = db
        self.events = events
        self.pending = pending
        selectEntry = try db.prepare("""
            SELECT m.kind, m.subtype, m.source, m.start, m.amount, e.end, e.utc_offset, e.flags
              FROM manual_entries m LEFT JOIN events e ON e.subject = m.subject AND e.kind = m.kind AND e.subtype = m.subtype
                   AND e.source = m.source AND e.start = m.start AND e.amount = m.amount
             WHERE m.subject = ?1 AND m.id = ?2
            """)
        upsertEntry = try db.prepare(UpsertSQL.replacing(StoreTables.manualEntries))
        releaseEvent = try db.prepare("""
            DELETE FROM manual_entries WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start = ?5
               AND amount = ?6 AND id != ?7
            """)
        deleteEvent = try db.prepare("""
            DELETE FROM events WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start = ?5 AND amount = ?6
            """)
    }

    func write(_ rows: ArraySlice<ManualEntry>, now: Int64) throws {
        for entry in rows {
            let e = entry.event, subject = e.subject.text
            try pending.prepare(e.subject)
            let stored = try load(subject: subject, id: entry.id)
            try bindKey(e, to: releaseEvent)
            try releaseEvent.bindText(7, entry.id)
            try releaseEvent.run()
            if let old = stored, old.key != StoredEntry.key(of: e) {
                // The id now owns another row (another time, dose or kind): the old one goes.
                try bindKey(old.event, to: deleteEvent)
                try deleteEvent.run()
                for day in EventWriter.days(of: old.event) { try pending.note(subject: e.subject, day: day, changed: true, contested: true) }
                if old.event.kind == .episode { try events.noteEpisodeGone(old.event) }
            }
            try bindEntry(e, id: entry.id, now: now)
            try upsertEntry.run()
            // The event row itself (it usually arrives beside the entry too: no change then); the
            // event writer counts its change and the days it changes.
            try events.write([e][...])
        }
    }

    struct StoredEntry {
        var key: String
        var event: Event
        static func key(of e: Event) -> String {
            "\(e.kind.rawValue)|\(e.subtype.text)|\(e.source.text)|\(e.start)|\(e.insulin ?? e.carbs ?? 0)"
        }
    }

    func load(subject: String, id: String) throws -> StoredEntry? {
        selectEntry.reset()
        defer { selectEntry.reset() }
        try selectEntry.bindText(1, subject)
        try selectEntry.bindText(2, id)
        guard try selectEntry.step(), let kind = Event.Kind(rawValue: selectEntry.text(0) ?? "") else { return nil }
        let s = selectEntry
        let start = s.int(3), amount = s.double(4)
        let event = Event(subject: Symbol(subject), kind: kind, subtype: Symbol(s.text(1) ?? ""), source: Symbol(s.text(2) ?? ""),
                          start: start, end: s.isNull(5) ? start : s.int(5), utcOffset: Int32(truncatingIfNeeded: s.int(6)),
                          carbs: kind == .meal ? amount : nil, insulin: kind == .insulin ? amount : nil,
                          flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(7))))
        return StoredEntry(key: StoredEntry.key(of: event), event: event)
    }

    private func bindKey(_ e: Event, to s: Statement) throws {
        try s.bindText(1, e.subject.text)
        try s.bindText(2, e.kind.rawValue)
        try s.bindText(3, e.subtype.text)
        try s.bindText(4, e.source.text)
        try s.bindInt(5, e.start)
        try s.bindDouble(6, e.insulin ?? e.carbs ?? 0)
    }

    private func bindEntry(_ e: Event, id: String, now: Int64) throws {
        let s = upsertEntry
        try s.bindText(1, e.subject.text)
        try s.bindText(2, id)
        try s.bindText(3, e.kind.rawValue)
        try s.bindText(4, e.subtype.text)
        try s.bindText(5, e.source.text)
        try s.bindInt(6, e.start)
        try s.bindDouble(7, e.insulin ?? e.carbs ?? 0)
        try s.bindInt(8, now)
    }

}
