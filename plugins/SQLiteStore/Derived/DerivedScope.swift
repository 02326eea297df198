import HealthPipeCore

/// Which derived rows a re-aggregation replaces, by subject: every row (`.all`), or for each
/// subject with pending days the rows of those days, the grid around them, and — when the steps
/// read whole histories — the subject's period sets, forecasts and alerts.
struct DerivedScope {
    let pendingOnly: Bool
    let wholeSubjects: Bool
    /// Only the rows the `reports` step derives, of every subject (`RefreshScope.reports`).
    let reportsOnly: Bool
    /// Pending days by subject.
    private(set) var days: [Symbol: Set<Int64>] = [:]
    /// Days whose grid rows are rewritten, by subject (pending days ± the grid margin).
    private(set) var gridDays: [Symbol: [ClosedRange<Int64>]] = [:]
    let pending: PendingSet?

    init(_ scope: RefreshScope, db: SQLiteConnection) throws {
        pendingOnly = scope.pendingOnly
        wholeSubjects = scope.wholeSubjects
        reportsOnly = scope.reportsOnly
        guard scope.pendingOnly else { pending = nil; return }
        let set = try PendingSet(db)
        pending = set
        for (subject, list) in set.days {
            let s = Symbol(subject)
            days[s] = Set(list)
            gridDays[s] = set.ranges(subject, margin: max(0, scope.marginDays - 1))
        }
    }

    var subjects: [Symbol] { days.keys.sorted { $0.text < $1.text } }

    @inline(__always)
    func contains(_ subject: Symbol, day: Int64) -> Bool { !pendingOnly || days[subject]?.contains(day) == true }

    /// Rows of a subject as a whole (forecasts, alerts, period sets).
    @inline(__always)
    func containsWhole(_ subject: Symbol) -> Bool { !pendingOnly || (wholeSubjects && days[subject] != nil) }

    /// Rows derived from a subject's reports (replaced for every subject with a pending day).
    @inline(__always)
    func containsReports(_ subject: Symbol) -> Bool { !pendingOnly || days[subject] != nil }

    @inline(__always)
    func containsGrid(_ subject: Symbol, day: Int64) -> Bool {
        guard pendingOnly else { return true }
        return gridDays[subject]?.contains { $0.contains(day) } == true
    }
}
