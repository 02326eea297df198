import HealthPipeCore

/// Seed 004 §1.3 — "the variation of a health information over a week": one value's readings from
/// the subject's reports over seven days (each point with its importance), the day's average (the
/// daily summary report) and the thresholds watched on it. Built from the store by the CLI.
public struct ReportValuesView: Sendable {
    public struct Point: Sendable, Hashable {
        public var utc: Int64, offset: Int32, value: Double, importance: Int, reportID: String
        public init(utc: Int64, offset: Int32, value: Double, importance: Int, reportID: String) {
            self.utc = utc
            self.offset = offset
            self.value = value
            self.importance = importance
            self.reportID = reportID
        }
        public var day: Int64 { LocalDays.day(utc, offset) }
    }

    public struct Day: Sendable, Hashable {
        public var day: Int64, n: Int, mean: Double, min: Double, max: Double, maxImportance: Int
        public init(day: Int64, n: Int, mean: Double, min: Double, max: Double, maxImportance: Int) {
            self.day = day
            self.n = n
            self.mean = mean
            self.min = min
            self.max = max
            self.maxImportance = maxImportance
        }
    }

    public struct Threshold: Sendable, Hashable {
        public var above: Bool, limit: Double, days: Int, minImportance: Int
        public init(above: Bool, limit: Double, days: Int, minImportance: Int) {
            self.above = above
            self.limit = limit
            self.days = days
            self.minImportance = minImportance
        }
    }

    public static let schemaVersion = 1
    public var subject: String
    public var metric: String
    public var unit: String
    public var firstDay: Int64
    public var lastDay: Int64
    /// In time order.
    public var points: [Point]
    /// Days of the week that have the value, oldest first.
    public var days: [Day]
    public var thresholds: [Threshold]

    public init(subject: String, metric: String, unit: String, firstDay: Int64, lastDay: Int64, points: [Point], days: [Day],
                thresholds: [Threshold]) {
        self.subject = subject
        self.metric = metric
        self.unit = unit
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.points = points
        self.days = days
        self.thresholds = thresholds
    }

    /// The y axis: every value and limit inside, with a little room.
    /// Only values a health value may hold (`HealthValues.customLimit`) set it: an older store's
    /// ±1.7e308 made the span infinite and the axis' tick loop never end.
    public var yRange: (min: Double, max: Double) {
        let all = (points.map(\.value) + thresholds.map(\.limit)).filter { abs($0) <= HealthValues.customLimit }
        guard let lo = all.min(), let hi = all.max() else { return (0, 1) }
        let pad = Swift.max((hi - lo) * 0.15, Swift.max(abs(hi) * 0.02, 0.5))
        return ((lo - pad).rounded(.down), (hi + pad).rounded(.up))
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 8 * 1024)
        ChartJSON.begin(&w, view: "report-values", version: Self.schemaVersion, subject: subject, unit: nil)
        w.field("metric", metric)
        w.field("value_unit", unit)
        ChartJSON.period(&w, firstDay, lastDay)
        let y = yRange
        w.object("y") { w in w.field("min", y.min); w.field("max", y.max) }
        w.objects("points", points) { w, p in
            w.field("time", ChartJSON.local(p.utc, p.offset)); w.field("date", CivilDate.isoDate(fromDays: p.day))
            w.field("value", p.value); w.field("importance", p.importance); w.field("report", p.reportID)
        }
        w.objects("days", days) { w, d in
            ChartJSON.date(&w, d.day)
            w.field("mean", d.mean); w.field("n", d.n); w.field("min", d.min); w.field("max", d.max)
            w.field("max_importance", d.maxImportance)
        }
        w.objects("thresholds", thresholds) { w, t in
            w.field(t.above ? "above" : "below", t.limit); w.field("days", t.days); w.field("min_importance", t.minImportance)
        }
        return ChartJSON.end(&w)
    }
}

/// Seed 004 §1.3 — "the variation of the number of collected reports each day": reports per day
/// over a period (the seed's calendar), each day with the highest importance it held.
public struct ReportDaysView: Sendable {
    public struct Day: Sendable, Hashable {
        public var day: Int64, reports: Int, maxImportance: Int
        public init(day: Int64, reports: Int, maxImportance: Int) {
            self.day = day
            self.reports = reports
            self.maxImportance = maxImportance
        }
    }

    public static let schemaVersion = 1
    public var subject: String
    public var firstDay: Int64
    public var lastDay: Int64
    /// Every day of the period, oldest first (days without a report have 0).
    public var days: [Day]

    /// `days` with a row for every day of the period (missing ones count 0 reports).
    public init(subject: String, firstDay: Int64, lastDay: Int64, days: [Day]) {
        self.subject = subject
        self.firstDay = firstDay
        self.lastDay = lastDay
        let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        self.days = firstDay > lastDay ? [] : (firstDay...lastDay).map { byDay[$0] ?? Day(day: $0, reports: 0, maxImportance: 0) }
    }

    public var total: Int { days.reduce(0) { $0 + $1.reports } }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 8 * 1024)
        ChartJSON.begin(&w, view: "report-days", version: Self.schemaVersion, subject: subject, unit: nil)
        ChartJSON.period(&w, firstDay, lastDay)
        w.field("total_reports", total)
        w.field("days_with_reports", days.filter { $0.reports > 0 }.count)
        w.objects("days", days) { w, d in
            ChartJSON.date(&w, d.day)
            w.field("reports", d.reports)
            w.key("max_importance"); if d.reports > 0 { w.int(d.maxImportance) } else { w.null() }
        }
        return ChartJSON.end(&w)
    }
}
