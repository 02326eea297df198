import HealthPipeAnalytics
import HealthPipeCore

/// The Ambulatory Glucose Profile report for a period (reference: the International Diabetes
/// Center's one-page AGP report): statistics and targets, the five-range time-in-ranges bar, the
/// 5/25/50/75/95th percentiles by time of day, and one small profile per day. Values are mg/dL.
public struct AGPView: Sendable {
    public struct Statistics: Sendable {
        public var readings: Int
        public var mean: Double?
        public var sd: Double?
        /// Glucose management indicator, %.
        public var gmi: Double?
        /// Coefficient of variation, % (target ≤ 36 %).
        public var cv: Double?
        /// % time CGM is active over the whole period, days without readings included (iglu's
        /// active_percent with the period as its range: the metric `active_percent_period`).
        public var activePercent: Double?
        public var daysWithData: Int
        /// % of readings 70–140 mg/dL (3.9–7.8 mmol/L): time in tight range.
        public var tightRange: Double?
        /// Glycemia Risk Index (Klonoff et al. 2023, as iglu's `gri`), 0–100.
        public var gri: Double?

        /// The GRI zone: A (≤ 20, lowest risk) … E (> 80).
        public var griZone: String? { gri.map(GRIZone.letter) }
    }

    /// One part of the time-in-ranges bar.
    public struct RangeShare: Sendable {
        public var name: String
        public var title: String
        /// "< 3.0", "3.9–10.0" … in the view's unit.
        public var range: String
        /// The consensus target for this part, e.g. "< 1%" (Battelino et al. 2019).
        public var target: String
        public var percent: Double
        /// -2 very low … 2 very high.
        public var level: Int
    }

    public struct DailyProfile: Sendable {
        public var day: Int64
        /// (minutes since local midnight, mg/dL) of each reading that day.
        public var points: [(minute: Double, mgdl: Double)]
    }

    public var subject: String
    public var firstDay: Int64
    public var lastDay: Int64
    public var unit: DisplayUnit
    public var statistics: Statistics
    public var ranges: [RangeShare]
    public var percentiles: [AGPPoint]
    public var daily: [DailyProfile]

    public var days: Int { Int(lastDay - firstDay + 1) }

    /// The consensus (Battelino et al. 2019) asks for 14 days with CGM active ≥ 70 % of the time.
    public static let minimumDays = 14, minimumActivePercent = 70.0

    /// Why the report is not a full consensus report, or nil when the data suffice: fewer than 14
    /// days with readings, or CGM active less than 70 % of the period.
    public var insufficientData: String? {
        let active = statistics.activePercent ?? 0
        guard statistics.daysWithData < Self.minimumDays || active < Self.minimumActivePercent else { return nil }
        return "Not enough data: \(statistics.daysWithData) of \(days) days with readings, CGM active "
            + Fmt.fixed(active, 1) + "% (a reliable report needs 14 days and 70%)."
    }

    /// "a day", or "a data day" (a day with readings) when some days of the period have none:
    /// shares of readings become time per day of readings, never spread over days without data.
    public var perDayText: String { statistics.daysWithData < days ? "a data day" : "a day" }

    /// The AGP report shows two rows of seven daily profiles: the last 14 days of a longer period.
    public static let dailyProfilesShown = 14
}

/// Builds the AGP the way the `daily` transform builds `glucose_agp` for a period (the same
/// readings, the same 5-minute grid, the same percentiles), so the two agree exactly.
public enum AGPBuilder {
    public static func build(subject: String, firstDay: Int64, lastDay: Int64, readings: [Measurement], unit: DisplayUnit) -> AGPView {
        // The period's readings in local time, sorted; two readings at one time: the first wins (as the grid needs).
        var pairs: [(time: Int64, value: Double)] = []
        pairs.reserveCapacity(readings.count)
        for r in readings where r.value.isFinite && !r.flags.contains(.interpolated) {
            let local = LocalDays.local(r.start, r.utcOffset)
            let day = CivilDate.floorDiv(local, 86_400)
            if day >= firstDay && day <= lastDay { pairs.append((local, r.value)) }
        }
        let order = pairs.indices.sorted { (pairs[$0].time, $0) < (pairs[$1].time, $1) }
        var times: [Int64] = [], values: [Double] = []
        times.reserveCapacity(order.count)
        values.reserveCapacity(order.count)
        for i in order where times.last != pairs[i].time {
            times.append(pairs[i].time)
            values.append(pairs[i].value)
        }
        let metrics = GlucoseMetrics.compute(times: times, values: values, withAGP: true, period: (firstDay, lastDay))
        let named = Dictionary(metrics.values.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })

        var daily: [Int64: [(minute: Double, mgdl: Double)]] = [:]
        for (t, v) in zip(times, values) {
            let d = CivilDate.floorDiv(t, 86_400)
            daily[d, default: []].append((Double(t - d * 86_400) / 60, v))
        }
        let shownFrom = max(firstDay, lastDay - Int64(AGPView.dailyProfilesShown) + 1)
        let profiles = (shownFrom...max(shownFrom, lastDay)).map { AGPView.DailyProfile(day: $0, points: daily[$0] ?? []) }

        let stats = AGPView.Statistics(readings: times.count, mean: named["mean"], sd: named["sd"], gmi: named["gmi_pct"],
                                       cv: named["cv_pct"], activePercent: named["active_percent_period"] ?? 0, daysWithData: daily.count,
                                       tightRange: named["titr_70_140_pct"], gri: named["gri"])
        return AGPView(subject: subject, firstDay: firstDay, lastDay: lastDay, unit: unit, statistics: stats,
                       ranges: ranges(named, unit: unit), percentiles: metrics.agp, daily: profiles)
    }

    /// The report's five ranges with the consensus targets, from the metric set's shares of readings.
    static func ranges(_ named: [String: Double], unit: DisplayUnit) -> [AGPView.RangeShare] {
        let bands = ChartBands(scheme: .consensus)
        // Below 70 counts very low too, above 180 very high too (the report's targets say so).
        let parts: [(metric: String, target: String)] = [
            ("tbr_lt54_pct", "< 1%"), ("tbr_54_69_pct", "< 4% below " + unit.edgeText(70)), ("tir_70_180_pct", "> 70%"),
            ("tar_181_250_pct", "< 25% above " + unit.edgeText(180)), ("tar_gt250_pct", "< 5%"),
        ]
        return parts.enumerated().map { i, p in
            let b = bands.bands[i]
            return AGPView.RangeShare(name: b.name, title: b.title, range: bands.rangeText(i, unit: unit), target: p.target,
                                      percent: named[p.metric] ?? 0, level: b.level)
        }
    }
}

