import HealthPipeCore

/// All CGM metrics of one subject over one day or period, from that period's readings alone
/// (as iglu sees a dataset of its own). Names are those of reference_metrics.csv; a value that is
/// undefined for the data (e.g. MODD on a single day) is left out rather than written as NaN.
public enum GlucoseMetrics {
    public struct Options: Sendable {
        /// Grid step for CONGA, MODD and AGP (MAGE always uses 5 minutes, as iglu does).
        public var gridStepSeconds: Int64 = 300
        public var maxGapSeconds: Int64 = 45 * 60
        /// Extra CONGA lags in hours besides 1 (conga1) and 24 (conga24_iglu_default).
        public var congaHours: [Int] = []
        public init() {}
    }

    static let maxGridSpanDays: Int64 = 36_600

    /// `times` are local seconds, sorted; `values` mg/dL. Several readings at one instant (other
    /// sources) all count in the reading metrics; the grid and active % take their mean at that
    /// instant, as iglu's interpolation (R `approx`, ties = mean) does.
    ///
    /// With `period` (its first and last local day), the set also says how much of the period has data:
    /// `period_days`, `days_with_data` and `active_percent_period` (iglu's manual-range active %), so a
    /// report over 14 days with one day of readings says so instead of looking complete.
    public static func compute(times readingTimes: [Int64], values: [Double], options: Options = Options(), withAGP: Bool,
                               period: (firstDay: Int64, lastDay: Int64)? = nil)
        -> (values: [NamedValue], agp: [AGPPoint]) {
        var out: [NamedValue] = []
        guard !values.isEmpty else { return ([], []) }
        ReadingMetrics.append(values: values, to: &out)
        let days = readingTimes.map { CivilDate.floorDiv($0, 86_400) }
        out.append(NamedValue("adrr", ReadingMetrics.adrr(days: days, values: values)))
        let (times, instantValues) = meanPerInstant(times: readingTimes, values: values)
        out.append(NamedValue("active_percent", ReadingMetrics.activePercent(sortedTimes: times)))
        if let period {
            out.append(NamedValue("period_days", Double(period.lastDay - period.firstDay + 1)))
            out.append(NamedValue("days_with_data", Double(Set(days.filter { $0 >= period.firstDay && $0 <= period.lastDay }).count)))
            out.append(NamedValue("active_percent_period",
                                  ReadingMetrics.activePercent(sortedTimes: times, firstDay: period.firstDay, lastDay: period.lastDay)))
        }

        // The grid is a dense matrix over the whole span: a stray timestamp centuries away must not
        // allocate gigabytes, so beyond a century the grid metrics are left out.
        guard times[times.count - 1] - times[0] <= maxGridSpanDays * 86_400 else { return (out.filter { $0.value.isFinite }, []) }
        let fiveMinute = DayByDayGrid(times: times, values: instantValues, stepSeconds: 300, maxGapSeconds: options.maxGapSeconds)
        out.append(NamedValue("mage_ma", MovingAverageMAGE.compute(grid: fiveMinute.values)))
        let grid = options.gridStepSeconds == 300 ? fiveMinute
            : DayByDayGrid(times: times, values: instantValues, stepSeconds: options.gridStepSeconds, maxGapSeconds: options.maxGapSeconds)
        out.append(NamedValue("conga1", GridMetrics.conga(grid, hours: 1)))
        for h in options.congaHours where h != 1 && h != 24 { out.append(NamedValue("conga\(h)", GridMetrics.conga(grid, hours: h))) }
        out.append(NamedValue("conga24_iglu_default", GridMetrics.conga(grid, hours: 24)))
        out.append(NamedValue("modd", GridMetrics.modd(grid)))
        let agp = withAGP ? GridMetrics.agp(grid) : []
        return (out.filter { $0.value.isFinite }, agp)
    }

    /// Sorted times with repeats → distinct times and the mean of the values at each.
    static func meanPerInstant(times: [Int64], values: [Double]) -> (times: [Int64], values: [Double]) {
        guard zip(times, times.dropFirst()).contains(where: { $0 == $1 }) else { return (times, values) }
        var t: [Int64] = [], v: [Double] = []
        t.reserveCapacity(times.count)
        v.reserveCapacity(times.count)
        var i = 0
        while i < times.count {
            var j = i, sum = 0.0
            while j < times.count && times[j] == times[i] { sum += values[j]; j += 1 }
            t.append(times[i])
            v.append(sum / Double(j - i))
            i = j
        }
        return (t, v)
    }

    /// The AGP columns reported as named values (every 3 hours, like the reference): `agp_p50_12:00`.
    public static func agpNamedValues(_ agp: [AGPPoint], everyMinutes: Int = 180) -> [NamedValue] {
        var out: [NamedValue] = []
        for p in agp where p.minuteOfDay % everyMinutes == 0 {
            let hh = p.minuteOfDay / 60, mm = p.minuteOfDay % 60
            let label = (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)"
            for (name, v) in [("p05", p.p05), ("p25", p.p25), ("p50", p.p50), ("p75", p.p75), ("p95", p.p95)] {
                out.append(NamedValue("agp_\(name)_\(label)", v))
            }
        }
        return out
    }
}
