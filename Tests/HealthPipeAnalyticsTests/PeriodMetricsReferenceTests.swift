import HealthPipeAnalytics
import HealthPipeCore
import Testing

/// Time in tight range and how much of a period has data, against iglu-python
/// (reference_period_iglu.csv, made by make_period_reference.py): the whole fortnight of every
/// simglucose series, its irregular copy, and a sparse fortnight (3 of 14 days kept).
@Suite struct PeriodMetricsReferenceTests {
    static let firstDay = CivilDate.days(year: 2024, month: 1, day: 1)
    static let lastDay = firstDay + 13

    /// The sparse fortnight of make_period_reference.py: 01-02, 01-06 and the afternoon of 01-11.
    static func sparse(_ s: MetricsReferenceData.Series) -> MetricsReferenceData.Series {
        var out = MetricsReferenceData.Series()
        for (t, v) in zip(s.times, s.values) {
            let day = CivilDate.floorDiv(t, 86_400) - firstDay + 1, hour = (t % 86_400) / 3600
            guard day == 2 || day == 6 || (day == 11 && hour >= 12) else { continue }
            out.times.append(t)
            out.values.append(v)
        }
        return out
    }

    @Test(arguments: ["regular", "irregular", "sparse"])
    func everyReferenceRowMatches(source: String) throws {
        let rows = try MetricsReferenceData.lines("reference_period_iglu.csv").map { $0.split(separator: ",") }
            .filter { $0[0] == source }
        #expect(rows.count == 40)
        var failures: [String] = []
        var computed: [Substring: [NamedValue]] = [:]
        for row in rows {
            let patient = row[1]
            if computed[patient] == nil {
                var series = try MetricsReferenceData.readings(file: source == "irregular" ? "irregular.csv" : "all.csv",
                                                               patient: String(patient))
                if source == "sparse" { series = Self.sparse(series) }
                computed[patient] = GlucoseMetrics.compute(times: series.times, values: series.values, withAGP: false,
                                                           period: (Self.firstDay, Self.lastDay)).values
            }
            let ours = computed[patient]!.first { $0.name == row[2] }?.value
            if !MetricsReferenceData.agrees(ours, Double(row[3])!, relative: 1e-8) {
                failures.append("\(source) \(patient) \(row[2]): ours \(ours.map { "\($0)" } ?? "missing"), iglu \(row[3])")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func withoutAPeriodTheSetHasNoPeriodValues() {
        let r = GlucoseMetrics.compute(times: [0, 300, 600], values: [100, 110, 120], withAGP: false)
        #expect(!r.values.contains { $0.name == "active_percent_period" || $0.name == "days_with_data" })
        #expect(r.values.first { $0.name == "titr_70_140_pct" }?.value == 100)
    }
}
