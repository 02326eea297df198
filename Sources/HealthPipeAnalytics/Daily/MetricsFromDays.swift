import HealthPipeCore

/// Completes the sets with what the daily summaries hold: a day's hypo/hyper flags and event totals
/// (a day's metric set carries only the CGM metrics), and for a metric that is not glucose — which
/// has no CGM metric set — count, mean, SD, min and max per day or period, and for a metric that
/// adds up (steps, distance, energy, sleep minutes) its total (each minute once across sources)
/// and, over a period, the mean of its days' totals.
public enum MetricsFromDays {
    struct Key: Hashable { var subject: Symbol, metric: Symbol, day: Int64 }

    public static func complete(_ sets: [MetricSet], days: [DailySummary], period: MetricPeriod) -> [MetricSet] {
        var byDay: [Key: DailySummary] = [:]
        for d in days { byDay[Key(subject: d.subject, metric: d.metric, day: d.day)] = d }
        var out = sets.map { set -> MetricSet in
            guard set.firstDay == set.lastDay, let d = byDay[Key(subject: set.subject, metric: set.metric, day: set.firstDay)] else { return set }
            var s = set
            s.values += [NamedValue("hypo_days", d.hypo ? 1 : 0), NamedValue("hyper_days", d.hyper ? 1 : 0),
                         NamedValue("carbs_g", d.carbsGrams), NamedValue("insulin_u", d.insulinUnits),
                         NamedValue("exercise_min", d.exerciseMinutes), NamedValue("illness_days", d.illness ? 1 : 0),
                         NamedValue("stress_days", d.stress ? 1 : 0)]
            return s
        }
        let covered = Set(sets.map { "\($0.subject.id)/\($0.metric.id)" })
        let plain = days.filter { !covered.contains("\($0.subject.id)/\($0.metric.id)") && $0.count > 0 }
        switch period {
        case .day:
            out += plain.map { basic(subject: $0.subject, metric: $0.metric, unit: $0.unit, first: $0.day, last: $0.day, [$0]) }
        case .period(let from, let to):
            let inside = plain.filter { d in (from.map { d.day >= $0 } ?? true) && (to.map { d.day <= $0 } ?? true) }
            for (_, group) in Dictionary(grouping: inside, by: { "\($0.subject.id)/\($0.metric.id)" }) {
                let sorted = group.sorted { $0.day < $1.day }
                out.append(basic(subject: sorted[0].subject, metric: sorted[0].metric, unit: sorted[0].unit,
                                 first: from ?? sorted[0].day, last: to ?? sorted[sorted.count - 1].day, sorted))
            }
        }
        return out
    }

    /// Count, mean, SD (n − 1), min and max over whole days (Chan's pairwise update of mean and M2).
    static func basic(subject: Symbol, metric: Symbol, unit: Symbol, first: Int64, last: Int64, _ days: [DailySummary]) -> MetricSet {
        var n = 0.0, mean = 0.0, m2 = 0.0, lo = Double.infinity, hi = -Double.infinity
        for d in days {
            let k = Double(d.count), dm2 = (d.sd ?? 0) * (d.sd ?? 0) * (k - 1)
            let delta = d.mean - mean
            mean += delta * k / (n + k)
            m2 += dm2 + delta * delta * n * k / (n + k)
            n += k
            lo = min(lo, d.min)
            hi = max(hi, d.max)
        }
        var values = [NamedValue("n_readings", n), NamedValue("mean", mean)]
        if n > 1 { values.append(NamedValue("sd", (m2 / (n - 1)).squareRoot())) }
        values += [NamedValue("min", lo), NamedValue("max", hi)]
        let totals = days.compactMap(\.total)
        if !totals.isEmpty {
            var sum = ExactSum()
            for t in totals { sum.add(t) }
            values.append(NamedValue("total", sum.value))
            if days.count > 1 { values.append(NamedValue("daily_total_mean", sum.value / Double(totals.count))) }
        }
        return MetricSet(subject: subject, metric: metric, unit: unit, firstDay: first, lastDay: last, values: values)
    }
}
