import HealthPipeCore

/// The trends section (the page's and the app's days screen): a card per metric with its name and
/// unit, the latest day's value and the period's average in text, and its chart (`MetricTrendSVG`).
public struct MetricTrendsHTML: Sendable {
    public var trends: [MetricTrend]
    public init(trends: [MetricTrend]) { self.trends = trends }

    /// The trends of `table` over `firstDay...lastDay`; nil when no metric has a day value in it.
    public init?(_ table: DailyMetricsTable?, firstDay: Int64, lastDay: Int64) {
        guard let table else { return nil }
        trends = MetricTrend.trends(table, firstDay: firstDay, lastDay: lastDay)
        if trends.isEmpty { return nil }
    }

    /// The whole `#trends` card: heading, what the charts show, the grid.
    package func section(_ m: inout Markup) {
        m.raw("<section id=\"trends\" class=\"card\"><h2>Trends</h2><p class=\"lead\">Each metric's days over the period: "
              + "bars for a day's total (steps, energy, sleep minutes: each minute once across sources), a line through the day's mean "
              + "with its lowest–highest for a level (heart rate, HRV, weight); the dashed line is the period's average. Hover or tap a day for its value.</p>")
        render(&m)
        m.raw("</section>")
    }

    package func render(_ m: inout Markup) {
        m.raw("<div class=\"trend-grid\">")
        for t in trends {
            let unit = t.shownUnit
            let withUnit = { (v: Double) in t.text(v) + (unit.isEmpty ? "" : " " + unit) }
            m.raw("<figure class=\"trend\" data-metric=\"")
            m.escaped(t.metric)
            m.raw("\"><figcaption><b>")
            m.escaped(DailyMetricsTable.shownName(t.metric))
            m.raw("</b>")
            m.raw(" <small>")
            m.escaped((unit.isEmpty ? "" : unit + ", ") + t.valueName)
            m.raw("</small>")
            m.raw("<span class=\"trend-facts\">")
            if let latest = t.latest {
                m.raw("latest <b data-stat=\"latest\">")
                m.escaped(withUnit(latest.value))
                m.raw("</b> <small>")
                m.escaped(Fmt.dayMonth(latest.day))
                m.raw("</small>")
            }
            if let avg = t.average {
                m.raw(" · average <b data-stat=\"average\">")
                m.escaped(withUnit(avg))
                m.raw("</b> <small>")
                m.escaped("\(t.points.count) day" + (t.points.count == 1 ? "" : "s"))
                m.raw("</small>")
            }
            m.raw("</span></figcaption>")
            MetricTrendSVG(trend: t).element(into: &m)
            m.raw("</figure>")
        }
        m.raw("</div>")
    }

    /// The grid's style: as many 320 px columns as fit, one on a phone.
    package static let css = """
    .trend-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:14px}
    .trend{margin:0;border:1px solid #E5E7EB;border-radius:10px;padding:8px 10px 4px;min-width:0}
    .trend figcaption{font-size:14px;line-height:1.35}
    .trend figcaption small{color:#4B5563}
    .trend-facts{display:block;color:#374151}
    .trend-chart .t-axis{font-size:12px;fill:#374151}
    @media (max-width:700px){.trend-grid{grid-template-columns:1fr}}

    """
}
