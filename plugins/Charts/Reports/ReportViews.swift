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
    public var yRange: (min: Double, max: Double) {
        let all = points.map(\.value) + thresholds.map(\.limit)
        guard let lo = all.min(), let hi = all.max() else { return (0, 1) }
        let pad = Swift.max((hi - lo) * 0.15, Swift.max(abs(hi) * 0.02, 0.5))
        return ((lo - pad).rounded(.down), (hi + pad).rounded(.up))
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 8 * 1024)
        ChartJSON.begin(&w, view: "report-values", version: Self.schemaVersion, subject: subject, unit: nil)
        w.key("metric"); w.string(metric)
        w.key("value_unit"); w.string(unit)
        w.key("from"); w.string(CivilDate.isoDate(fromDays: firstDay))
        w.key("to"); w.string(CivilDate.isoDate(fromDays: lastDay))
        let y = yRange
        w.key("y"); w.beginObject(); w.key("min"); w.double(y.min); w.key("max"); w.double(y.max); w.endObject()
        w.key("points"); w.beginArray()
        for p in points {
            w.beginObject()
            w.key("time"); w.string(ChartJSON.local(p.utc, p.offset))
            w.key("date"); w.string(CivilDate.isoDate(fromDays: p.day))
            w.key("value"); w.double(p.value)
            w.key("importance"); w.int(p.importance)
            w.key("report"); w.string(p.reportID)
            w.endObject()
        }
        w.endArray()
        w.key("days"); w.beginArray()
        for d in days {
            w.beginObject()
            w.key("date"); w.string(CivilDate.isoDate(fromDays: d.day))
            w.key("weekday"); w.string(Fmt.weekday(d.day))
            w.key("mean"); w.double(d.mean)
            w.key("n"); w.int(d.n)
            w.key("min"); w.double(d.min)
            w.key("max"); w.double(d.max)
            w.key("max_importance"); w.int(d.maxImportance)
            w.endObject()
        }
        w.endArray()
        w.key("thresholds"); w.beginArray()
        for t in thresholds {
            w.beginObject()
            w.key(t.above ? "above" : "below"); w.double(t.limit)
            w.key("days"); w.int(t.days)
            w.key("min_importance"); w.int(t.minImportance)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
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
        w.key("from"); w.string(CivilDate.isoDate(fromDays: firstDay))
        w.key("to"); w.string(CivilDate.isoDate(fromDays: lastDay))
        w.key("total_reports"); w.int(total)
        w.key("days_with_reports"); w.int(days.filter { $0.reports > 0 }.count)
        w.key("days"); w.beginArray()
        for d in days {
            w.beginObject()
            w.key("date"); w.string(CivilDate.isoDate(fromDays: d.day))
            w.key("weekday"); w.string(Fmt.weekday(d.day))
            w.key("reports"); w.int(d.reports)
            w.key("max_importance"); if d.reports > 0 { w.int(d.maxImportance) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
    }
}
