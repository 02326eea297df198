import HealthPipeCore

/// Seed 004 §1.1 — "show reports on a daily basis, like inside a calendar": the months of a period,
/// each day with its reports (time, values with their importance, note), the day's summary report
/// (the average of each value, as `report_days` computes it) and the alerts on watched averages.
/// Built from the store by the CLI; drawn by `ReportCalendarHTML`.
public struct ReportCalendar: Sendable {
    public struct Report: Sendable {
        public var utc: Int64, offset: Int32, note: String?
        public var values: [(metric: String, value: Double, unit: String, importance: Int)]
        public init(utc: Int64, offset: Int32, note: String?, values: [(metric: String, value: Double, unit: String, importance: Int)]) {
            self.utc = utc
            self.offset = offset
            self.note = note
            self.values = values
        }
    }

    public struct Day: Sendable {
        public var reports: [Report] = []
        /// The day's summary report (`report_days`): a row per value.
        public var summary: [ReportDay] = []
        /// "Average temperature above 37.5 °C (37.8) over 3 days".
        public var alerts: [String] = []
        public init() {}
        public var maxImportance: Int { reports.flatMap(\.values).map(\.importance).max() ?? 0 }
        public var hasNote: Bool { reports.contains { !($0.note ?? "").isEmpty } }
    }

    /// Inclusive local days; the calendar shows every month they touch.
    public var firstDay: Int64
    public var lastDay: Int64
    public var days: [Int64: Day]

    public init(firstDay: Int64, lastDay: Int64, days: [Int64: Day]) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.days = days
    }

    /// The first day of each month from `firstDay`'s to `lastDay`'s.
    public var months: [Int64] {
        var out: [Int64] = []
        var (y, m, _) = CivilDate.date(fromDays: firstDay)
        let (ly, lm, _) = CivilDate.date(fromDays: lastDay)
        while (y, m) <= (ly, lm) {
            out.append(CivilDate.days(year: y, month: m, day: 1))
            (y, m) = m == 12 ? (y + 1, 1) : (y, m + 1)
        }
        return out
    }
}
