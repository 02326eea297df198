import HealthPipeCore

/// A small chart of one metric over the page's period: a bar per day for a metric that adds up
/// (steps, energy, sleep minutes), a line through the day means for a level (heart rate, HRV,
/// weight) with each day's lowest–highest as a thin whisker, and the period's average dashed.
/// Each day is a `trend-point` with its ISO day and exact value, and a `<title>` tooltip.
/// The width is that of a phone column, so its text stays legible at 390 px and on a desktop grid.
public struct MetricTrendSVG: ChartDrawing {
    let trend: MetricTrend
    public init(trend: MetricTrend) { self.trend = trend }

    public var width: Double { 360 }
    public var height: Double { 150 }
    public var kind: String { "trend-chart" }
    public var titleID: String? { nil }
    static let left = 46.0, right = 350.0, top = 10.0, bottom = 118.0

    /// The value scale: from zero for bars, around the values for a line; rounded to a whole step,
    /// a grid line at each step.
    func scale() -> (low: Double, high: Double, step: Double) {
        let values = trend.points.flatMap { p in trend.isBars ? [p.value] : [p.value, p.min ?? p.value, p.max ?? p.value] }
        guard var lo = values.min(), var hi = values.max() else { return (0, 1, 0.5) }
        if trend.isBars { lo = Swift.min(0, lo) }
        // One value (or all equal): a band of 5 % around it (a percent of 0.21 is not padded by a whole 1).
        if hi - lo < 1e-9 {
            let pad = hi == 0 ? 1 : abs(hi) * 0.05
            hi += pad
            if !trend.isBars { lo -= pad }
        }
        let step = Self.niceStep((hi - lo) / 4)
        return ((lo / step).rounded(.down) * step, (hi / step).rounded(.up) * step, step)
    }

    static func niceStep(_ raw: Double) -> Double {
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw && magnitude > 1e-6 { magnitude /= 10 }
        for f in [1.0, 2, 2.5, 5, 10] where magnitude * f >= raw { return magnitude * f }
        return magnitude * 10
    }

    public func body(_ m: inout Markup) {
        let (l, r, t, b) = (Self.left, Self.right, Self.top, Self.bottom)
        let (lo, hi, step) = scale()
        let dayCount = Double(trend.lastDay - trend.firstDay + 1)
        let slot = (r - l) / Swift.max(dayCount, 1)
        func x(_ day: Int64) -> Double { l + slot * (Double(day - trend.firstDay) + 0.5) }
        func y(_ v: Double) -> Double { b - (b - t) * (v - lo) / (hi - lo) }
        let unit = trend.shownUnit
        m.title(DailyMetricsTable.shownName(trend.metric) + (unit.isEmpty ? "" : " (" + unit + ")") + ", " + trend.valueName + " per day")
        m.rect(l, t, r - l, b - t, attributes: "fill=\"\(Palette.panel)\"")
        for i in 0...Int(((hi - lo) / step).rounded()) {
            let v = lo + Double(i) * step
            m.line(l, y(v), r, y(v), attributes: "class=\"grid\"")
            m.textElement(x: l - 5, y: y(v) + 4, trend.text(v), attributes: "text-anchor=\"end\" class=\"t-axis\"")
        }
        let tip = { (p: MetricTrend.Point) -> String in
            var s: String = Fmt.shortDate(p.day) + ": " + trend.text(p.value)
            s += (unit.isEmpty ? "" : " " + unit) + " (" + trend.valueName
            if trend.isBars { return s + ", \(p.n) record(s))" }
            s += " of \(p.n)"
            if let lowest = p.min { s += ", lowest " + trend.text(lowest) }
            if let highest = p.max { s += ", highest " + trend.text(highest) }
            return s + ")"
        }
        if trend.isBars {
            let w = Swift.max(1, Swift.min(24, slot * 0.7))
            for p in trend.points {
                m.raw("<g class=\"trend-point\" data-day=\"\(CivilDate.isoDate(fromDays: p.day))\" data-value=\"\(p.value)\">")
                m.title(tip(p))
                // The hit area is the whole slot, so a thin bar of a long period can still be tapped.
                m.rect(x(p.day) - slot / 2, t, slot, b - t, attributes: "fill=\"transparent\"")
                m.rect(x(p.day) - w / 2, y(p.value), w, y(Swift.max(lo, 0)) - y(p.value), attributes: "fill=\"\(Palette.skyBlue)\" stroke=\"\(Palette.blue)\" stroke-width=\".6\"")
                m.raw("</g>")
            }
        } else {
            let path = Markup.path(trend.points.map { (x: x($0.day), y: y($0.value)) }) { i in trend.points[i].day - trend.points[i - 1].day > 1 }
            m.raw("<path d=\"" + path + "\" fill=\"none\" stroke=\"\(Palette.blue)\" stroke-width=\"1.8\" stroke-linejoin=\"round\"/>")
            let dot = Swift.min(3.5, Swift.max(2.4, slot * 0.35))
            for p in trend.points {
                m.raw("<g class=\"trend-point\" data-day=\"\(CivilDate.isoDate(fromDays: p.day))\" data-value=\"\(p.value)\">")
                m.title(tip(p))
                if let lowest = p.min, let highest = p.max, highest > lowest {
                    m.line(x(p.day), y(lowest), x(p.day), y(highest), attributes: "stroke=\"\(Palette.skyBlue)\" stroke-width=\"1.2\"")
                }
                m.raw("<circle cx=\"\(Fmt.coord(x(p.day)))\" cy=\"\(Fmt.coord(y(p.value)))\" r=\"\(Fmt.coord(dot))\" fill=\"\(Palette.blue)\"/>")
                m.rect(x(p.day) - slot / 2, t, slot, b - t, attributes: "fill=\"transparent\"")
                m.raw("</g>")
            }
        }
        if let avg = trend.average {
            m.raw("<g class=\"trend-average\">")
            m.title("Average of the period: " + trend.text(avg) + (unit.isEmpty ? "" : " " + unit) + " over \(trend.points.count) day(s)")
            m.line(l, y(avg), r, y(avg), attributes: "stroke=\"\(Palette.orange)\" stroke-width=\"1.4\" stroke-dasharray=\"5 3\"")
            m.raw("</g>")
        }
        m.line(l, b, r, b, attributes: "stroke=\"\(Palette.ink)\"")
        m.textElement(x: l, y: b + 16, Fmt.dayMonth(trend.firstDay), attributes: "class=\"t-axis\"")
        m.textElement(x: r, y: b + 16, Fmt.dayMonth(trend.lastDay), attributes: "text-anchor=\"end\" class=\"t-axis\"")
        if trend.lastDay - trend.firstDay >= 4 {
            m.textElement(x: (l + r) / 2, y: b + 16, Fmt.dayMonth(trend.firstDay + (trend.lastDay - trend.firstDay) / 2), attributes: "text-anchor=\"middle\" class=\"t-axis\"")
        }
    }
}
