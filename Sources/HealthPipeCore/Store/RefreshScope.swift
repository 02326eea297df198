// Shared by every store: SQLite's refresh and PostgreSQL's read and replace the same days.

/// Which stored data a re-aggregation reads and which derived rows it replaces.
/// `.all` is `healthpipe reaggregate`: everything. `pending` brings up to date only the
/// (subject, local day)s listed in `derived_pending`, as after an import: their readings (and
/// `marginDays` around them, for steps that look across midnight — resample's gap), or the whole
/// history of a subject that has any, for steps that depend on it (predict, alerts, per-period sets).
/// `.reports` reads every subject's health reports only and replaces only what the `reports` step
/// derives from them (`healthpipe alerts set`: nothing else depends on the report settings).
public struct RefreshScope: Sendable, Equatable {
    public var pendingOnly: Bool
    public var marginDays: Int64
    public var wholeSubjects: Bool
    public var reportsOnly: Bool

    public init(pendingOnly: Bool, marginDays: Int64 = 0, wholeSubjects: Bool = false, reportsOnly: Bool = false) {
        self.pendingOnly = pendingOnly
        self.marginDays = max(0, marginDays)
        self.wholeSubjects = wholeSubjects
        self.reportsOnly = reportsOnly
    }

    public static let all = RefreshScope(pendingOnly: false, wholeSubjects: true)
    /// Every subject's report-derived rows (daily summary reports, report alerts), pending days left as they are.
    public static let reports = RefreshScope(pendingOnly: false, wholeSubjects: true, reportsOnly: true)
}
