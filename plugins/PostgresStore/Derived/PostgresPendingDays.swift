import HealthPipeCore

/// What a refresh of a PostgreSQL store brings up to date, read from `derived_pending` as SQLite's
/// refresh reads its own: per subject the pending local days (sorted), or the whole subject (`*`).
/// The source reads those days' readings (`marginDays` around them for steps that look across
/// midnight, or all of them when the steps read whole histories); the sink replaces those days'
/// derived rows and takes exactly these rows off the list.
public struct PostgresPendingDays: Sendable {
    public var days: [String: [Int64]] = [:]
    public var whole: Set<String> = []
    public var marginDays: Int64 = 0
    /// The steps read whole histories (predict, alerts, per-period sets): a subject's readings are
    /// read whole and its forecasts, alerts and period sets replaced.
    public var wholeSubjects = false

    /// The mark of a subject pending as a whole.
    static let wholeMark = "*"

    public var subjects: [String] { Set(days.keys).union(whole).sorted() }
    public var isEmpty: Bool { days.isEmpty && whole.isEmpty }

    /// The pending rows of `subjects`.
    public static func read(url: PostgresURL, subjects: [String]) throws -> PostgresPendingDays {
        let db = try PostgresSchema.open(url)
        let rows = try db.query("SELECT subject, day FROM derived_pending WHERE subject = ANY($1::text[]) ORDER BY subject, day",
                                [PGArray.text(subjects)])
        var out = PostgresPendingDays()
        for r in 0..<rows.count {
            guard let subject = rows.text(r, 0), let day = rows.text(r, 1) else { continue }
            if day == wholeMark { out.whole.insert(subject) } else if let d = CivilDate.days(fromISO: day) { out.days[subject, default: []].append(d) }
        }
        return out
    }

    /// The local-day ranges around a subject's pending days, `margin` wide on each side, merged; nil
    /// when everything of the subject is read.
    func ranges(_ subject: String, margin: Int64) -> [ClosedRange<Int64>]? {
        whole.contains(subject) ? nil : LocalDayRanges.around(days[subject] ?? [], margin: margin)
    }

    /// The readings a refresh reads of a subject: nil for all of them.
    func readRanges(_ subject: String) -> [ClosedRange<Int64>]? { wholeSubjects ? nil : ranges(subject, margin: marginDays) }

    /// The days whose grid rows a refresh replaces: the pending days and the margin the grid step reads
    /// around them less the day it reads itself (SQLite's rule).
    func gridRanges(_ subject: String) -> [ClosedRange<Int64>] { ranges(subject, margin: max(0, marginDays - 1)) ?? [] }

    func contains(_ subject: Symbol, day: Int64) -> Bool {
        whole.contains(subject.text) || days[subject.text]?.contains(day) == true
    }

    /// Rows of a subject as a whole (forecasts, alerts, period sets).
    func containsWhole(_ subject: Symbol) -> Bool {
        whole.contains(subject.text) || (wholeSubjects && days[subject.text] != nil)
    }

    /// The pending rows as two parallel arrays (subject, day text), for `unnest`.
    var rows: (subjects: [String], days: [String]) {
        let byDay = dayRows
        return (whole.sorted() + byDay.subjects, whole.map { _ in Self.wholeMark } + byDay.days)
    }

    /// Lists `rows` (subject, day text) in `derived_pending`, in the caller's transaction.
    static func add(_ rows: (subjects: [String], days: [String]), in db: PGConnection) throws {
        guard !rows.subjects.isEmpty else { return }
        try db.query("INSERT INTO derived_pending (subject, day) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING",
                     [PGArray.text(rows.subjects), PGArray.text(rows.days)])
    }

    /// Takes `rows` (subject, day text) off `derived_pending`, in the caller's transaction.
    static func remove(_ rows: (subjects: [String], days: [String]), in db: PGConnection) throws {
        guard !rows.subjects.isEmpty else { return }
        try db.query("DELETE FROM derived_pending WHERE (subject, day) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
                     [PGArray.text(rows.subjects), PGArray.text(rows.days)])
    }

    /// `days` as two parallel arrays (subject, day text; `*` for a nil day), for `unnest`, sorted so
    /// that concurrent writers lock rows in one order.
    static func unnestRows(_ days: some Sequence<StagedReadings.PendingDay>) -> (subjects: [String], days: [String]) {
        let pairs = days.map { ($0.subject.text, $0.day.map(CivilDate.isoDate(fromDays:)) ?? wholeMark) }.sorted { $0 < $1 }
        return (pairs.map(\.0), pairs.map(\.1))
    }

    /// The pending days of subjects not pending whole, as `rows`.
    var dayRows: (subjects: [String], days: [String]) {
        var s: [String] = [], d: [String] = []
        for (subject, list) in days.sorted(by: { $0.key < $1.key }) where !whole.contains(subject) {
            for day in list { s.append(subject); d.append(CivilDate.isoDate(fromDays: day)) }
        }
        return (s, d)
    }
}

/// SQL shared by the refresh's reads and deletes.
enum PGLocalDay {
    /// A row's local day number from its `start` and `utc_offset`.
    static let expression = "floor((start + utc_offset) / 86400.0)::bigint"
}
