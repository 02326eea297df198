import HealthPipeCore

/// A Nightscout treatment sent again under its identity — `created_at` and `eventType`, the key
/// cgm-remote-monitor upserts treatments on (and the `_id` the server answers) — replaces the
/// document it names: the amount is not identity, so 2 U corrected to 5 U is one 5 U bolus, not two.
/// Events are keyed by amount (two doses in the same minute from a pump are two events), so the
/// replacement is done around the import that stores the new document:
/// 1. `mark`: the events the earlier document became carry `markBit` in their flags;
/// 2. the import upserts the new document's events — a row it writes again loses the mark, since
///    flags are compared;
/// 3. `sweep` (the import kept the document): the events still marked are the earlier document's
///    rows the new one no longer has; they are deleted and their days made pending for the refresh.
///    `unmark` (the import rejected it): the earlier document stays as it was.
public enum TreatmentReplacement {
    /// A flag bit no record carries (`RecordFlags` uses the low bits): set only between `mark` and `sweep`.
    static let markBit: Int64 = 1 << 30

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

        /// The events of the identity: of its amounts' kinds, or — for a treatment without an
        /// amount (a note, a temp target) — of any other kind.
        var matches: String {
            let amounts = (insulin ? ["'insulin'"] : []) + (carbs ? ["'meal'"] : [])
            let kinds = amounts.isEmpty ? "kind NOT IN ('insulin', 'meal')" : "kind IN (\(amounts.joined(separator: ", ")))"
            return "subject = ?1 AND start = ?2 AND \(kinds) AND CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.eventType') END = ?3"
        }
    }

    public static func mark(path: String, subject: String, _ identities: [Identity]) throws {
        try each(path, subject, identities) { "UPDATE events SET flags = flags | \(markBit) WHERE \($0.matches)" }
    }

    public static func unmark(path: String, subject: String, _ identities: [Identity]) throws {
        try each(path, subject, identities) { "UPDATE events SET flags = flags & ~\(markBit) WHERE \($0.matches)" }
    }

    /// Deletes the marked events of `identities`, their days made pending; the number deleted.
    public static func sweep(path: String, subject: String, _ identities: [Identity]) throws -> Int {
        guard !identities.isEmpty else { return 0 }
        let db = try SQLiteSchema.open(path: path)
        return try db.transaction {
            let pending = try db.prepare("INSERT OR IGNORE INTO derived_pending (subject, day) VALUES (?1, ?2)")
            var deleted = 0
            for identity in identities {
                let marked = "\(identity.matches) AND (flags & \(markBit)) != 0"
                let find = try db.prepare("SELECT kind, subtype, source, start, end, utc_offset FROM events WHERE \(marked)")
                let delete = try db.prepare("DELETE FROM events WHERE \(marked)")
                try bind(find, subject, identity)
                while try find.step() {
                    guard let kind = Event.Kind(rawValue: find.text(0) ?? "") else { continue }
                    let event = Event(subject: Symbol(subject), kind: kind, subtype: Symbol(find.text(1) ?? ""), source: Symbol(find.text(2) ?? ""),
                                      start: find.int(3), end: find.int(4), utcOffset: Int32(truncatingIfNeeded: find.int(5)))
                    for day in EventWriter.days(of: event) {
                        try pending.bindText(1, subject)
                        try pending.bindText(2, CivilDate.isoDate(fromDays: day))
                        try pending.run()
                    }
                }
                try bind(delete, subject, identity)
                try delete.run()
                deleted += db.changes
            }
            return deleted
        }
    }

    private static func each(_ path: String, _ subject: String, _ identities: [Identity], _ sql: (Identity) -> String) throws {
        guard !identities.isEmpty else { return }
        let db = try SQLiteSchema.open(path: path)
        try db.transaction {
            for identity in identities {
                let s = try db.prepare(sql(identity))
                try bind(s, subject, identity)
                try s.run()
            }
        }
    }

    private static func bind(_ s: Statement, _ subject: String, _ identity: Identity) throws {
        try s.bindText(1, subject)
        try s.bindInt(2, identity.start)
        try s.bindText(3, identity.eventType)
    }
}
