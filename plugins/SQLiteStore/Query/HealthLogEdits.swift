import HealthPipeCore

/// The health-log writes that are not an upsert through the `sqlite` sink: deleting a report or a
/// manual entry (its rows, and the days they counted in made pending in the same transaction, so
/// the refresh brings the derived rows up to date), and the user tables — favourites, the
/// reminder's snoozes, the alerts already announced — which re-aggregation never touches.
public enum HealthLogEdits {
    /// Deletes a report, its values and its readings; false when the id is not stored.
    public static func deleteReport(path: String, subject: String, id: String) throws -> Bool {
        let db = try SQLiteSchema.open(path: path)
        return try db.transaction {
            let s = try db.prepare("SELECT start, utc_offset FROM reports WHERE subject = ?1 AND id = ?2")
            try s.bindText(1, subject)
            try s.bindText(2, id)
            guard try s.step() else { return false }
            let start = s.int(0), offset = s.int(1)
            try run(db, """
                DELETE FROM measurements WHERE subject = ?1 AND source = '\(HealthReport.source.text)' AND start = ?3 AND end = ?3
                   AND metric IN (SELECT metric FROM report_values WHERE subject = ?1 AND report_id = ?2)
                """, subject, id, start)
            try run(db, "DELETE FROM report_values WHERE subject = ?1 AND report_id = ?2", subject, id)
            try run(db, "DELETE FROM reports WHERE subject = ?1 AND id = ?2", subject, id)
            try EditedDays.markPending(db, subject: subject, days: [LocalDays.day(start, Int32(truncatingIfNeeded: offset))])
            return true
        }
    }

    /// Deletes a manual entry and the event row it owns; false when the id is not stored.
    public static func deleteEntry(path: String, subject: String, id: String) throws -> Bool {
        let db = try SQLiteSchema.open(path: path)
        return try db.transaction {
            let s = try db.prepare("""
                SELECT m.kind, m.subtype, m.start, e.end, e.utc_offset, e.flags FROM manual_entries m
                  LEFT JOIN events e ON e.subject = m.subject AND e.kind = m.kind AND e.subtype = m.subtype AND e.source = m.source
                       AND e.start = m.start AND e.amount = m.amount
                 WHERE m.subject = ?1 AND m.id = ?2
                """)
            try s.bindText(1, subject)
            try s.bindText(2, id)
            guard try s.step(), let kind = Event.Kind(rawValue: s.text(0) ?? "") else { return false }
            let start = s.int(2)
            let event = Event(subject: Symbol(subject), kind: kind, subtype: Symbol(s.text(1) ?? ""), source: ManualEntry.source,
                              start: start, end: s.isNull(3) ? start : s.int(3), utcOffset: Int32(truncatingIfNeeded: s.int(4)),
                              flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(5))))
            try run(db, """
                DELETE FROM events WHERE (subject, kind, subtype, source, start, amount) IN
                    (SELECT subject, kind, subtype, source, start, amount FROM manual_entries WHERE subject = ?1 AND id = ?2)
                """, subject, id)
            try run(db, "DELETE FROM manual_entries WHERE subject = ?1 AND id = ?2", subject, id)
            try EditedDays.markPending(db, subject: subject, event: event)
            return true
        }
    }

    /// Stars a day (or changes its note).
    public static func addFavourite(path: String, subject: String, day: Int64, note: String?, now: Int64) throws {
        let db = try SQLiteSchema.open(path: path)
        let s = try db.prepare("""
            INSERT INTO favourites (subject, day, note, created_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (subject, day) DO UPDATE SET note = coalesce(excluded.note, favourites.note)
            """)
        try s.bindText(1, subject)
        try s.bindText(2, CivilDate.isoDate(fromDays: day))
        try s.bindText(3, note)
        try s.bindInt(4, now)
        try s.run()
    }

    /// Un-stars a day; false when it was not starred.
    public static func removeFavourite(path: String, subject: String, day: Int64) throws -> Bool {
        let db = try SQLiteSchema.open(path: path)
        try run(db, "DELETE FROM favourites WHERE subject = ?1 AND day = ?2", subject, CivilDate.isoDate(fromDays: day))
        return db.changes > 0
    }

    /// Postpones the reminder of a local day until `until` (UTC seconds).
    public static func snooze(path: String, subject: String, day: Int64, until: Int64, now: Int64) throws {
        let db = try SQLiteSchema.open(path: path)
        let s = try db.prepare("""
            INSERT INTO reminder_snoozes (subject, day, until, created_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (subject, day) DO UPDATE SET until = excluded.until, created_at = excluded.created_at
            """)
        try s.bindText(1, subject)
        try s.bindText(2, CivilDate.isoDate(fromDays: day))
        try s.bindInt(3, until)
        try s.bindInt(4, now)
        try s.run()
    }

    /// Records that alerts were announced for these due times.
    public static func recordNotices(path: String, _ notices: [(subject: String, kind: Alert.Kind, metric: String, start: Int64, due: Int64)],
                                     now: Int64) throws {
        guard !notices.isEmpty else { return }
        let db = try SQLiteSchema.open(path: path)
        try db.transaction {
            let s = try db.prepare("""
                INSERT INTO alert_notices (subject, kind, metric, start, due_at, notified_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (subject, kind, metric, start) DO UPDATE SET due_at = excluded.due_at, notified_at = excluded.notified_at
                """)
            for n in notices {
                try s.bindText(1, n.subject)
                try s.bindText(2, n.kind.rawValue)
                try s.bindText(3, n.metric)
                try s.bindInt(4, n.start)
                try s.bindInt(5, n.due)
                try s.bindInt(6, now)
                try s.run()
            }
        }
    }

    private static func run(_ db: SQLiteConnection, _ sql: String, _ args: Any...) throws {
        let s = try db.prepare(sql)
        for (i, a) in args.enumerated() {
            switch a {
            case let t as String: try s.bindText(Int32(i + 1), t)
            case let n as Int64: try s.bindInt(Int32(i + 1), n)
            default: preconditionFailure("unsupported argument \(a)")
            }
        }
        try s.run()
    }
}
