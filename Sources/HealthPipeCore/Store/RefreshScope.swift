// Shared by every store: SQLite's refresh and PostgreSQL's read and replace the same days.

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
