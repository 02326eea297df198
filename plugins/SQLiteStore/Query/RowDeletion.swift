import HealthPipeCore

/// Deleting imported rows by hand (a Nightscout client's DELETE): the rows go, the days they counted
/// in are made pending in the same transaction (`EditedDays`, as the health log's deletes make
/// theirs; the caller runs the refresh after an edit,
/// `EditRefresh`, so every derived row follows), and each deleted row is remembered in
/// `deleted_rows` — an import that brings the same row again leaves it deleted (`DeletedRowsGuard`),
/// unless it is asked to restore it.
public enum RowDeletion {
    public enum Table: String, Sendable { case measurements, events }

    /// What names the rows to delete: a reading by its key (metric, source, start, end); an event by
    /// kind, subtype, source and start — every amount at that key.
    public struct Target: Hashable, Sendable {
        public var table: Table
        public var name: String
        public var subtype: String
        public var source: String
        public var start: Int64
        public var end: Int64

        public init(table: Table, name: String, subtype: String = "", source: String, start: Int64, end: Int64) {
            (self.table, self.name, self.subtype, self.source, self.start, self.end) = (table, name, subtype, source, start, end)
        }
    }

    /// A stored row's key in SQL over its table: a reading's (?1 subject, ?2 metric, ?3 source,
    /// ?4 start, ?5 end), an event's (?1 subject, ?2 kind, ?3 subtype, ?4 source, ?5 start; every amount).
    static let readingKey = "subject = ?1 AND metric = ?2 AND source = ?3 AND start = ?4 AND \"end\" = ?5"
    static let eventKey = "subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start = ?5"

    /// Binds `t`'s key to a statement written with `readingKey` or `eventKey`.
    static func bindKey(_ s: Statement, _ t: Target, subject: String) throws {
        try s.bindText(1, subject)
        try s.bindText(2, t.name)
        if t.table == .measurements {
            try s.bindText(3, t.source)
            try s.bindInt(4, t.start)
            try s.bindInt(5, t.end)
        } else {
            try s.bindText(3, t.subtype)
            try s.bindText(4, t.source)
            try s.bindInt(5, t.start)
        }
    }

    /// Deletes the rows of `targets` of `subject` in the store at `path`, remembering each; the
    /// number of rows deleted (0 when none was stored).
    public static func delete(path: String, subject: String, _ targets: [Target], now: Int64) throws -> Int {
        guard !targets.isEmpty else { return 0 }
        let db = try SQLiteSchema.open(path: path)
        return try db.transaction {
            let readings = try db.prepare("SELECT utc_offset, value, metadata FROM measurements WHERE \(readingKey)")
            let deleteReading = try db.prepare("DELETE FROM measurements WHERE \(readingKey)")
            let events = try db.prepare("SELECT amount, \"end\", utc_offset, flags, metadata FROM events WHERE \(eventKey)")
            let deleteEvents = try db.prepare("DELETE FROM events WHERE \(eventKey)")
            let remember = try db.prepare("""
                INSERT INTO deleted_rows (subject, row_table, name, subtype, source, start, "end", amount, utc_offset, value, metadata, deleted_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                ON CONFLICT DO UPDATE SET utc_offset = excluded.utc_offset, value = excluded.value, metadata = excluded.metadata,
                                          deleted_at = excluded.deleted_at
                """)
            func keep(_ t: Target, end: Int64, amount: Double, offset: Int64, value: Double?, metadata: String?) throws {
                try remember.bindText(1, subject)
                try remember.bindText(2, t.table.rawValue)
                try remember.bindText(3, t.name)
                try remember.bindText(4, t.subtype)
                try remember.bindText(5, t.source)
                try remember.bindInt(6, t.start)
                try remember.bindInt(7, end)
                try remember.bindDouble(8, amount)
                try remember.bindInt(9, offset)
                try remember.bindDouble(10, value)
                try remember.bindText(11, metadata)
                try remember.bindInt(12, now)
                try remember.run()
            }
            var deleted = 0
            for t in Set(targets) {
                let (find, remove) = t.table == .measurements ? (readings, deleteReading) : (events, deleteEvents)
                for s in [find, remove] { try bindKey(s, t, subject: subject) }
                defer { find.reset() }
                while try find.step() {
                    if t.table == .measurements {
                        let offset = find.int(0)
                        try keep(t, end: t.end, amount: 0, offset: offset, value: find.isNull(1) ? nil : find.double(1), metadata: find.text(2))
                        try EditedDays.markPending(db, subject: subject, days: [LocalDays.day(t.start, Int32(truncatingIfNeeded: offset))])
                    } else {
                        let amount = find.double(0), end = find.int(1), offset = find.int(2)
                        try keep(t, end: end, amount: amount, offset: offset, value: nil, metadata: find.text(4))
                        let event = Event(subject: Symbol(subject), kind: Event.Kind(rawValue: t.name) ?? .note, subtype: Symbol(t.subtype),
                                          source: Symbol(t.source), start: t.start, end: end, utcOffset: Int32(truncatingIfNeeded: offset),
                                          flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: find.int(3))))
                        try EditedDays.markPending(db, subject: subject, event: event)
                    }
                }
                try remove.run()
                deleted += db.changes
            }
            return deleted
        }
    }
}
