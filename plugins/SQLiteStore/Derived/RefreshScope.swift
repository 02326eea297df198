import HealthPipeCore

/// Which stored data a re-aggregation reads and which derived rows it replaces.
/// `.all` is `healthpipe reaggregate`: everything. `pending` brings up to date only the
/// (subject, local day)s listed in `derived_pending`, as after an import: their readings (and
/// `marginDays` around them, for steps that look across midnight — resample's gap), or the whole
/// history of a subject that has any, for steps that depend on it (predict, alerts, per-period sets).
public struct RefreshScope: Sendable, Equatable {
    public var pendingOnly: Bool
    public var marginDays: Int64
    public var wholeSubjects: Bool

    public init(pendingOnly: Bool, marginDays: Int64 = 0, wholeSubjects: Bool = false) {
        self.pendingOnly = pendingOnly
        self.marginDays = max(0, marginDays)
        self.wholeSubjects = wholeSubjects
    }

    public static let all = RefreshScope(pendingOnly: false, wholeSubjects: true)
}

/// The pending days of a database, by subject (sorted), as one transaction sees them.
struct PendingSet {
    var days: [String: [Int64]] = [:]

    init(_ db: SQLiteConnection) throws {
        let s = try db.prepare("SELECT subject, day FROM derived_pending ORDER BY subject, day")
        while try s.step() {
            guard let subject = s.text(0), let day = s.text(1).flatMap({ CivilDate.days(fromISO: $0) }) else { continue }
            days[subject, default: []].append(day)
        }
    }

    var isEmpty: Bool { days.isEmpty }

    /// Inclusive local-day ranges around a subject's pending days, `margin` wide on each side, merged.
    func ranges(_ subject: String, margin: Int64) -> [ClosedRange<Int64>] {
        LocalDayRanges.around(days[subject] ?? [], margin: margin)
    }
}
