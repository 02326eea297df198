import HealthPipeCore

/// The reads behind the health-log commands (`healthpipe reports`, `entries`, `alerts`, `days`):
/// reports with their values, manual entries with their event rows, the daily summary reports,
/// alerts and the reminder's snoozes — each a range of a primary key or of `reports_by_time`.
public final class HealthLogQueries {
    let db: SQLiteConnection

    public struct StoredReport: Sendable, Equatable {
        public var id: String
        public var start: Int64
        public var utcOffset: Int32
        public var note: String?
        public var values: [HealthReport.Value]
        public var localDay: Int64 { LocalDays.day(start, utcOffset) }
    }

    public struct StoredEntry: Sendable, Equatable {
        public var id: String
        public var event: Event
    }

    /// Opens an existing database read-only (see `ChartQueries.init`).
    public init(path: String) throws {
        db = try SQLiteConnection.open(path: path, readOnly: true)
        try SQLiteSchema.migrator.checkSupported(db)
        guard try Migrator.version(of: db) > 0 else { throw ChartQueries.NotAStore() }
    }

    /// False for a database written before the health log existed (nothing stored in it yet).
    public var hasHealthLog: Bool { (try? Migrator.version(of: db)) ?? 0 >= SchemaV9.migration.version }

    // MARK: Reports

    public func report(subject: String, id: String) throws -> StoredReport? {
        guard hasHealthLog else { return nil }
        return try reports(where: "r.subject = ?1 AND r.id = ?2", [subject, id]).first
    }

    /// The id of the subject's report at exactly this instant.
    public func reportID(subject: String, at start: Int64) throws -> String? {
        guard hasHealthLog else { return nil }
        let s = try db.prepare("SELECT id FROM reports WHERE subject = ?1 AND start = ?2")
        try s.bindText(1, subject)
        try s.bindInt(2, start)
        return try s.step() ? s.text(0) : nil
    }

    /// Reports whose local day lies in `fromDay...toDay` (YYYY-MM-DD), oldest first.
    public func reports(subject: String, fromDay: Int64, toDay: Int64) throws -> [StoredReport] {
        guard hasHealthLog else { return [] }
        let (from, to) = LocalDays.utcBounds(firstDay: fromDay, lastDay: toDay)
        return try reports(where: "r.subject = ?1 AND r.start BETWEEN ?2 AND ?3", [subject, from, to])
            .filter { (fromDay...toDay).contains($0.localDay) }
    }

    private func reports(where condition: String, _ args: [Any]) throws -> [StoredReport] {
        let s = try db.prepare("""
            SELECT r.id, r.start, r.utc_offset, r.note, v.metric, v.value, v.unit, v.importance
              FROM reports r JOIN report_values v ON v.subject = r.subject AND v.report_id = r.id
             WHERE \(condition) ORDER BY r.start, r.id, v.metric
            """)
        try bind(s, args)
        var out: [StoredReport] = []
        while try s.step() {
            let id = s.text(0) ?? ""
            if out.last?.id != id {
                out.append(StoredReport(id: id, start: s.int(1), utcOffset: Int32(truncatingIfNeeded: s.int(2)), note: s.text(3), values: []))
            }
            out[out.count - 1].values.append(.init(metric: Symbol(s.text(4) ?? ""), value: s.double(5), unit: Symbol(s.text(6) ?? ""),
                                                   importance: Int(s.int(7))))
        }
        return out
    }

    /// The daily summary reports of `fromDay...toDay` as the `reports` transform wrote them, by day then value.
    public func reportDays(subject: String, fromDay: Int64, toDay: Int64) throws -> [ReportDay] {
        guard hasHealthLog else { return [] }
        let s = try db.prepare("""
            SELECT day, metric, unit, reports, n, mean, min, max, max_importance FROM report_days
             WHERE subject = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, metric
            """)
        try bind(s, [subject, CivilDate.isoDate(fromDays: fromDay), CivilDate.isoDate(fromDays: toDay)])
        var out: [ReportDay] = []
        while try s.step() {
            guard let day = s.text(0).flatMap(CivilDate.days(fromISO:)) else { continue }
            out.append(ReportDay(subject: Symbol(subject), day: day, metric: Symbol(s.text(1) ?? ""), unit: Symbol(s.text(2) ?? ""),
                                 reports: Int(s.int(3)), count: Int(s.int(4)), mean: s.double(5), min: s.double(6), max: s.double(7),
                                 maxImportance: Int(s.int(8))))
        }
        return out
    }

    /// The first and last local day with a report, nil when there is none.
    public func reportSpan(subject: String) throws -> (first: Int64, last: Int64)? {
        guard hasHealthLog else { return nil }
        let s = try db.prepare("""
            SELECT (SELECT start + utc_offset FROM reports WHERE subject = ?1 ORDER BY start LIMIT 1),
                   (SELECT start + utc_offset FROM reports WHERE subject = ?1 ORDER BY start DESC LIMIT 1)
            """)
        try s.bindText(1, subject)
        guard try s.step(), !s.isNull(0) else { return nil }
        return (CivilDate.floorDiv(s.int(0), 86_400), CivilDate.floorDiv(s.int(1), 86_400))
    }

    // MARK: Manual entries

    public func entry(subject: String, id: String) throws -> StoredEntry? {
        guard hasHealthLog else { return nil }
        return try entries(where: "m.subject = ?1 AND m.id = ?2", [subject, id]).first
    }

    /// Entries starting in `fromDay...toDay` (local), oldest first.
    public func entries(subject: String, fromDay: Int64, toDay: Int64) throws -> [StoredEntry] {
        guard hasHealthLog else { return [] }
        let (from, to) = LocalDays.utcBounds(firstDay: fromDay, lastDay: toDay)
        return try entries(where: Self.dayEntries, [subject, from, to])
            .filter { (fromDay...toDay).contains($0.event.localDay) }
    }

    /// The subject's open episode of `subtype` (illness, stress), if one is running.
    public func openEpisode(subject: String, subtype: String) throws -> StoredEntry? {
        guard hasHealthLog else { return nil }
        return try entries(where: "m.subject = ?1 AND m.kind = 'episode' AND m.subtype = ?2 AND e.flags & \(RecordFlags.openEnded.rawValue) != 0",
                           [subject, subtype]).last
    }

    /// The id of the entry owning the event row with this natural key.
    public func entryID(owning e: Event) throws -> String? {
        guard hasHealthLog else { return nil }
        let s = try db.prepare("""
            SELECT id FROM manual_entries WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start = ?5 AND amount = ?6
            """)
        try bind(s, [e.subject.text, e.kind.rawValue, e.subtype.text, e.source.text, e.start, e.insulin ?? e.carbs ?? 0])
        return try s.step() ? s.text(0) : nil
    }

    static let dayEntries = "m.subject = ?1 AND m.start BETWEEN ?2 AND ?3"

    /// The entries (few: typed by a person) drive the join, each finding its event by key — `CROSS
    /// JOIN` keeps that order: without statistics SQLite walked every event of the days through the
    /// time index instead, most of a day view's store time on a pump user's history.
    static func entriesSQL(_ condition: String) -> String {
        """
        SELECT m.id, m.kind, m.subtype, m.source, m.start, e.end, e.utc_offset, e.carbs_g, e.protein_g, e.fat_g, e.insulin_u,
               e.intensity, e.note, e.flags, m.subject
          FROM manual_entries m CROSS JOIN events e ON e.subject = m.subject AND e.kind = m.kind AND e.subtype = m.subtype
               AND e.source = m.source AND e.start = m.start AND e.amount = m.amount
         WHERE \(condition) ORDER BY m.start, m.id
        """
    }

    private func entries(where condition: String, _ args: [Any]) throws -> [StoredEntry] {
        let s = try db.prepare(Self.entriesSQL(condition))
        try bind(s, args)
        var out: [StoredEntry] = []
        while try s.step() {
            guard let kind = Event.Kind(rawValue: s.text(1) ?? "") else { continue }
            func optional(_ c: Int32) -> Double? { s.isNull(c) ? nil : s.double(c) }
            let e = Event(subject: Symbol(s.text(14) ?? ""), kind: kind, subtype: Symbol(s.text(2) ?? ""), source: Symbol(s.text(3) ?? ""),
                          start: s.int(4), end: s.int(5), utcOffset: Int32(truncatingIfNeeded: s.int(6)), carbs: optional(7),
                          protein: optional(8), fat: optional(9), insulin: optional(10), intensity: Symbol(s.text(11) ?? ""),
                          note: s.text(12), flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(13))))
            out.append(StoredEntry(id: s.text(0) ?? "", event: e))
        }
        return out
    }

    // MARK: Alerts

    /// The subject's alerts of these kinds, oldest first (none in a database written before alerts existed).
    public func alerts(subject: String, kinds: [Alert.Kind]) throws -> [Alert] {
        guard try Migrator.version(of: db) >= SchemaV4.migration.version else { return [] }
        let s = try db.prepare("""
            SELECT metric, kind, start, end, utc_offset, value, threshold, model FROM alerts
             WHERE subject = ?1 AND kind IN (\(kinds.map { "'\($0.rawValue)'" }.joined(separator: ", "))) ORDER BY start, kind, metric
            """)
        try s.bindText(1, subject)
        var out: [Alert] = []
        while try s.step() {
            guard let kind = Alert.Kind(rawValue: s.text(1) ?? "") else { continue }
            out.append(Alert(subject: Symbol(subject), metric: Symbol(s.text(0) ?? ""), kind: kind, start: s.int(2), end: s.int(3),
                             utcOffset: Int32(truncatingIfNeeded: s.int(4)), value: s.double(5), threshold: s.double(6),
                             model: Symbol(s.text(7) ?? "")))
        }
        return out
    }

    /// Until when the reminder of a local day is postponed.
    public func snooze(subject: String, day: Int64) throws -> Int64? {
        guard hasHealthLog else { return nil }
        let s = try db.prepare("SELECT until FROM reminder_snoozes WHERE subject = ?1 AND day = ?2")
        try bind(s, [subject, CivilDate.isoDate(fromDays: day)])
        return try s.step() ? s.int(0) : nil
    }

    /// The due time an alert was last announced for.
    public func noticeDue(subject: String, kind: Alert.Kind, metric: String, start: Int64) throws -> Int64? {
        guard hasHealthLog else { return nil }
        let s = try db.prepare("SELECT due_at FROM alert_notices WHERE subject = ?1 AND kind = ?2 AND metric = ?3 AND start = ?4")
        try bind(s, [subject, kind.rawValue, metric, start])
        return try s.step() ? s.int(0) : nil
    }

    /// Subjects with any report or manual entry, sorted.
    public func subjects() throws -> [String] {
        guard hasHealthLog else { return [] }
        let s = try db.prepare("SELECT subject FROM reports UNION SELECT subject FROM manual_entries ORDER BY 1")
        var out: [String] = []
        while try s.step() { out.append(s.text(0) ?? "") }
        return out
    }

    private func bind(_ s: Statement, _ args: [Any]) throws {
        for (i, a) in args.enumerated() {
            let index = Int32(i + 1)
            switch a {
            case let t as String: try s.bindText(index, t)
            case let n as Int64: try s.bindInt(index, n)
            case let d as Double: try s.bindDouble(index, d)
            default: preconditionFailure("unsupported argument \(a)")
            }
        }
    }
}
