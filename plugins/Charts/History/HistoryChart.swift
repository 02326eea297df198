import HealthPipeCore

/// The seed's history view as data: the sessions of one week, month or year (with previous/next
/// navigation by `offset`), bucketed by local day (week, month) or month (year). A period without
/// sessions is an empty series — every bucket present with 0 sessions — never an error.
public struct HistoryChart: Sendable {
    public enum Period: String, Sendable, CaseIterable { case week, month, year }

    /// One session as the chart sees it, from any origin (serial stream or Apple Health).
    public typealias Entry = BrushingSession

    public struct Bucket: Sendable, Hashable {
        public var label: String
        /// First and last local day, YYYY-MM-DD.
        public var from: String
        public var to: String
        public var sessions = 0
        public var minutes = 0.0
        /// Mean of the sessions' averages (nil when none has one).
        public var average: Double?
        public var accomplishment: Double?
    }

    public var period: Period
    public var offset: Int
    public var from: String
    public var to: String
    public var label: String
    public var buckets: [Bucket]

    public var totalSessions: Int { buckets.reduce(0) { $0 + $1.sessions } }
    public var isEmpty: Bool { totalSessions == 0 }

    /// The local days [first, last] of the period `offset` steps from the one holding `today`.
    /// The furthest a period may lie from today's (10,000 years of months; beyond, day arithmetic
    /// overflows): NumberRule.periodOffset, which the flags and the sink's option are read through.
    public static let maxOffset = Int(NumberRule.periodOffset.range.upperBound)

    public static func range(period: Period, offset: Int, today: Int64) -> (first: Int64, last: Int64) {
        let offset = min(max(offset, -maxOffset), maxOffset)  // the commands refuse more; a sink's option is held here
        switch period {
        case .week:
            // 1970-01-01 was a Thursday: Monday-based weekday = (day + 3) mod 7.
            let monday = today - (today + 3).modulo(7) + Int64(offset) * 7
            return (monday, monday + 6)
        case .month:
            let (y, m, _) = CivilDate.date(fromDays: today)
            let index = y * 12 + (m - 1) + offset
            let year = index.floorDiv(12), month = index - year * 12 + 1
            let first = CivilDate.days(year: year, month: month, day: 1)
            return (first, first + Int64(CivilDate.daysInMonth(year: year, month: month)) - 1)
        case .year:
            let y = CivilDate.date(fromDays: today).year + offset
            return (CivilDate.days(year: y, month: 1, day: 1), CivilDate.days(year: y, month: 12, day: 31))
        }
    }

    /// Builds the chart; entries outside the period are ignored, so callers may over-fetch.
    public static func build(period: Period, offset: Int, today: Int64, entries: [Entry]) -> HistoryChart {
        let (first, last) = range(period: period, offset: offset, today: today)
        var buckets: [Bucket] = []
        var bucketOfDay: (Int64) -> Int
        switch period {
        case .week, .month:
            for d in first...last {
                let label = period == .week ? weekdayNames[Int((d + 3).modulo(7))] : String(CivilDate.date(fromDays: d).day)
                buckets.append(Bucket(label: label, from: CivilDate.isoDate(fromDays: d), to: CivilDate.isoDate(fromDays: d)))
            }
            bucketOfDay = { Int($0 - first) }
        case .year:
            let y = CivilDate.date(fromDays: first).year
            for m in 1...12 {
                let s = CivilDate.days(year: y, month: m, day: 1)
                buckets.append(Bucket(label: monthNames[m - 1], from: CivilDate.isoDate(fromDays: s),
                                      to: CivilDate.isoDate(fromDays: s + Int64(CivilDate.daysInMonth(year: y, month: m)) - 1)))
            }
            bucketOfDay = { CivilDate.date(fromDays: $0).month - 1 }
        }
        var averages = [[Double]](repeating: [], count: buckets.count)
        var accomplishments = [[Double]](repeating: [], count: buckets.count)
        for e in entries {
            let d = e.localDay
            guard d >= first, d <= last else { continue }
            let i = bucketOfDay(d)
            buckets[i].sessions += 1
            buckets[i].minutes += Double(max(0, e.end - e.start)) / 60
            if let a = e.average { averages[i].append(a) }
            if let a = e.accomplishment { accomplishments[i].append(a) }
        }
        for i in buckets.indices {
            if !averages[i].isEmpty { buckets[i].average = averages[i].reduce(0, +) / Double(averages[i].count) }
            if !accomplishments[i].isEmpty { buckets[i].accomplishment = accomplishments[i].reduce(0, +) / Double(accomplishments[i].count) }
        }
        let label: String
        switch period {
        case .week: label = "week of " + CivilDate.isoDate(fromDays: first)
        case .month:
            let (y, m, _) = CivilDate.date(fromDays: first)
            label = monthNames[m - 1] + " " + String(y)
        case .year: label = String(CivilDate.date(fromDays: first).year)
        }
        return HistoryChart(period: period, offset: offset, from: CivilDate.isoDate(fromDays: first),
                            to: CivilDate.isoDate(fromDays: last), label: label, buckets: buckets)
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static let schemaVersion = 1

    /// `healthpipe.chart.history` version 1 (docs/charts.md#history).
    public func json(subject: String? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("schema"); w.string("healthpipe.chart.history")
        w.key("version"); w.int(Self.schemaVersion)
        if let subject { w.key("subject"); w.string(subject) }
        w.field("period", period.rawValue); w.field("offset", offset); w.field("label", label)
        w.field("from", from); w.field("to", to)
        w.field("empty", isEmpty); w.field("sessions", totalSessions)
        w.objects("buckets", buckets) { w, b in
            w.field("label", b.label); w.field("from", b.from); w.field("to", b.to); w.field("sessions", b.sessions)
            w.field("minutes", (b.minutes * 100).rounded() / 100)
            w.field("average", b.average.map { ($0 * 10000).rounded() / 10000 })
            w.field("accomplishment", b.accomplishment.map { ($0 * 10).rounded() / 10 })
        }
        return ChartJSON.end(&w)
    }

    /// A text bar chart of sessions per bucket, for the terminal.
    public func text() -> String {
        var lines = ["\(label) (\(from) – \(to)): \(totalSessions) session\(totalSessions == 1 ? "" : "s")"]
        if isEmpty { lines.append("  (no sessions in this period)") }
        let width = buckets.map(\.label.count).max() ?? 3
        for b in buckets {
            let pad = String(repeating: " ", count: width - b.label.count)
            var line = "  " + pad + b.label + " " + String(repeating: "█", count: min(b.sessions, 40))
            if b.sessions > 0 {
                line += " \(b.sessions)  \(Int(b.minutes.rounded())) min"
                if let a = b.average { line += "  avg " + String(Double(Int((a * 1000).rounded())) / 1000) + " g" }
                if let a = b.accomplishment { line += "  \(Int(a.rounded()))%" }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension Int64 {
    func modulo(_ n: Int64) -> Int64 { let r = self % n; return r < 0 ? r + n : r }
}

extension Int {
    func floorDiv(_ n: Int) -> Int { Int(CivilDate.floorDiv(Int64(self), Int64(n))) }
}
