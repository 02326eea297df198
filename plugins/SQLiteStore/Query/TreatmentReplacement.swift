import HealthPipeCore

/// A Nightscout treatment sent again under its identity — `created_at` and `eventType`, the key
/// cgm-remote-monitor upserts treatments on (and the `_id` the server answers) — replaces the
/// document it names: the amount is not identity, so 2 U corrected to 5 U is one 5 U bolus, not two.
/// Events are keyed by amount (two doses in the same minute from a pump are two events), so the
/// replacement is done around the import that stores the new document:
/// 1. `mark`: the events the earlier document became carry `RecordFlags.replacementPending`;
/// 2. the import upserts the new document's events — a row it writes again loses the mark, since
///    flags are compared;
/// 3. `sweep` (the import kept the document): the events still marked are the earlier document's
///    rows the new one no longer has; they are deleted and their days made pending for the refresh.
///    `unmark` (the import rejected it): the earlier document stays as it was.
/// One value serves one batch of uploads: the database is opened once and each statement prepared
/// once (an identity's amounts are bound, not written into the SQL). Between its calls it holds no
/// transaction, so the import in between writes through its own connection.
public final class TreatmentReplacement {
    /// One treatment identity: its instant (UTC seconds), eventType and which amounts it carries
    /// (AndroidAPS sends a bolus and its carbs as two `Meal Bolus` documents of one instant: each
    /// replaces only its own).
    public struct Identity: Hashable, Sendable {
        public var start: Int64
        public var eventType: String
        public var insulin: Bool
        public var carbs: Bool
        public init(start: Int64, eventType: String, insulin: Bool, carbs: Bool) {
            self.start = start
            self.eventType = eventType
            self.insulin = insulin
            self.carbs = carbs
        }
    }

    private static let mark = Int64(RecordFlags.replacementPending.rawValue)

    /// The events of an identity: of its amounts' kinds (?4 insulin, ?5 carbs), or — for a treatment
    /// without an amount (a note, a temp target, ?6) — of any other kind.
    private static let matches = "subject = ?1 AND start = ?2 "
        + "AND CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.eventType') END = ?3 "
        + "AND (CASE kind WHEN 'insulin' THEN ?4 WHEN 'meal' THEN ?5 ELSE ?6 END) = 1"

    private let db: SQLiteConnection
    private let subject: String
    private let setMark, clearMark, findMarked, deleteMarked, pending: Statement

    public init(path: String, subject: String) throws {
        db = try SQLiteSchema.open(path: path)
        self.subject = subject
        let marked = "\(Self.matches) AND (flags & \(Self.mark)) != 0"
        // By the instant's index: with the amounts bound, SQLite (no statistics) read every event of
        // the subject by the primary key instead — 500 marks in a store of 9,500 events took 600 ms, 1.6 ms so.
        let events = "events INDEXED BY events_by_time"
        setMark = try db.prepare("UPDATE \(events) SET flags = flags | \(Self.mark) WHERE \(Self.matches)")
        clearMark = try db.prepare("UPDATE \(events) SET flags = flags & ~\(Self.mark) WHERE \(Self.matches)")
        findMarked = try db.prepare("SELECT kind, subtype, source, start, end, utc_offset FROM \(events) WHERE \(marked)")
        deleteMarked = try db.prepare("DELETE FROM \(events) WHERE \(marked)")
        pending = try db.prepare("INSERT OR IGNORE INTO derived_pending (subject, day) VALUES (?1, ?2)")
    }

    public func mark(_ identities: [Identity]) throws { try each(identities, setMark) }

    public func unmark(_ identities: [Identity]) throws { try each(identities, clearMark) }

    /// Deletes the marked events of `identities`, their days made pending; the number deleted.
    public func sweep(_ identities: [Identity]) throws -> Int {
        guard !identities.isEmpty else { return 0 }
        return try db.transaction {
            var deleted = 0
            for identity in identities {
                try bind(findMarked, identity)
                defer { findMarked.reset() }
                while try findMarked.step() {
                    guard let kind = Event.Kind(rawValue: findMarked.text(0) ?? "") else { continue }
                    let event = Event(subject: Symbol(subject), kind: kind, subtype: Symbol(findMarked.text(1) ?? ""),
                                      source: Symbol(findMarked.text(2) ?? ""), start: findMarked.int(3), end: findMarked.int(4),
                                      utcOffset: Int32(truncatingIfNeeded: findMarked.int(5)))
                    for day in EventWriter.days(of: event) {
                        try pending.bindText(1, subject)
                        try pending.bindText(2, CivilDate.isoDate(fromDays: day))
                        try pending.run()
                    }
                }
                try bind(deleteMarked, identity)
                try deleteMarked.run()
                deleted += db.changes
            }
            return deleted
        }
    }

    private func each(_ identities: [Identity], _ statement: Statement) throws {
        guard !identities.isEmpty else { return }
        try db.transaction {
            for identity in identities {
                try bind(statement, identity)
                try statement.run()
            }
        }
    }

    private func bind(_ s: Statement, _ identity: Identity) throws {
        try s.bindText(1, subject)
        try s.bindInt(2, identity.start)
        try s.bindText(3, identity.eventType)
        try s.bindInt(4, identity.insulin ? 1 : 0)
        try s.bindInt(5, identity.carbs ? 1 : 0)
        try s.bindInt(6, identity.insulin || identity.carbs ? 0 : 1)
    }
}
