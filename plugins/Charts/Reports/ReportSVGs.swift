import HealthPipeCore

/// Colours and words of the importance scale 1–5 (seed 004): cool for routine, warm for what needs
/// attention; every mark also carries the number, so colour is never the only cue.
enum ImportanceStyle {
    static let fills = ["#9CA3AF", Palette.skyBlue, Palette.bluishGreen, Palette.orange, Palette.vermillion]
    static func fill(_ importance: Int) -> String { fills[max(1, min(5, importance)) - 1] }

    static func legend(_ m: inout Markup, x: Double, y: Double) {
        m.textElement(x: x + 40, y: y + 4, "importance", attributes: "text-anchor=\"end\" class=\"t-small\"")
        for i in 1...5 {
            let cx = x + 62 + Double(i - 1) * 26
            m.raw("<circle cx=\"\(Fmt.coord(cx))\" cy=\"\(Fmt.coord(y))\" r=\"7\" fill=\"\(fill(i))\"/>")
            m.textElement(x: cx, y: y + 3.5, String(i), attributes: "text-anchor=\"middle\" class=\"t-small\" style=\"fill:#fff;font-weight:700\"")
        }
    }
}

/// "A value over a week" as SVG: the week's days as columns, each reading a dot coloured (and
/// numbered) by its importance, the daily averages joined by a line, the watched thresholds.
public struct ReportValuesSVG: ChartDrawing {
    let view: ReportValuesView
    public init(view: ReportValuesView) { self.view = view }

    public var width: Double { 800 }
    public var height: Double { 320 }
    public var kind: String { "report-values-chart" }
    public var titleID: String? { nil }
    static let left = 64.0, right = 784.0, top = 70.0, bottom = 262.0

    public func body(_ m: inout Markup) {
        let (l, r, t, b) = (Self.left, Self.right, Self.top, Self.bottom)
        let unit = view.unit.isEmpty ? "" : " " + CanonicalUnits.shown(view.unit)
        m.raw("<rect width=\"800\" height=\"320\" fill=\"#fff\"/>")
        m.textElement(x: 16, y: 28, view.metric.replacingOccurrences(of: "_", with: " ").capitalizedFirst + " over a week",
                      attributes: "class=\"t-title\"")
        m.textElement(x: 16, y: 48, Fmt.shortDate(view.firstDay) + " – " + Fmt.shortDate(view.lastDay) + " · \(view.points.count) reading"
                      + (view.points.count == 1 ? "" : "s") + " from reports", attributes: "class=\"t-sub\"")
        ImportanceStyle.legend(&m, x: 600, y: 44)
        let y = view.yRange
        // A value beyond the axis (an older store's) is drawn at its edge.
        func yOf(_ v: Double) -> Double { b - (b - t) * (min(max(v, y.min), y.max) - y.min) / max(y.max - y.min, 1e-9) }
        let span = Double(view.lastDay - view.firstDay + 1) * 86_400
        func xOf(local seconds: Int64) -> Double { l + (r - l) * Double(seconds - view.firstDay * 86_400) / span }
        let step = Self.niceStep(y.max - y.min)
        var v = (y.min / step).rounded(.up) * step
        while v <= y.max + 1e-9 {
            m.line(l, yOf(v), r, yOf(v), attributes: "class=\"grid\"")
            m.textElement(x: l - 8, y: yOf(v) + 4, Fmt.amount(v, 2), attributes: "text-anchor=\"end\"")
            v += step
        }
        let days = Int(view.lastDay - view.firstDay + 1)
        for i in 0...days {
            let x = l + (r - l) * Double(i) / Double(days)
            m.line(x, t, x, b, attributes: "stroke=\"#E5E7EB\"")
            if i < days {
                let d = view.firstDay + Int64(i)
                m.textElement(x: x + (r - l) / Double(days) / 2, y: b + 16, Fmt.weekday(d) + " " + Fmt.dayMonth(d),
                              attributes: "text-anchor=\"middle\"")
            }
        }
        m.raw("<text x=\"18\" y=\"\(Fmt.coord((t + b) / 2))\" transform=\"rotate(-90 18 \(Fmt.coord((t + b) / 2)))\" text-anchor=\"middle\" class=\"t-small\">")
        m.escaped(view.unit.isEmpty ? view.metric : CanonicalUnits.shown(view.unit))
        m.raw("</text>")
        for th in view.thresholds where th.limit >= y.min && th.limit <= y.max {
            m.line(l, yOf(th.limit), r, yOf(th.limit), attributes: "stroke=\"\(Palette.vermillion)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"")
            m.textElement(x: r - 4, y: yOf(th.limit) - 5, "alert when the \(th.days)-day average (importance ≥ \(th.minImportance)) is "
                          + (th.above ? "above " : "below ") + Fmt.amount(th.limit, 2) + unit,
                          attributes: "text-anchor=\"end\" class=\"t-small\" fill=\"\(Palette.vermillion)\"")
        }
        let means = view.days.map { (x: xOf(local: $0.day * 86_400 + 43_200), y: yOf($0.mean)) }
        if means.count > 1 {
            m.raw("<path d=\"\(Markup.path(means))\" fill=\"none\" stroke=\"\(Palette.ink)\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>")
        }
        for (d, p) in zip(view.days, means) {
            m.raw("<g class=\"report-day-mean\">")
            m.title(Fmt.longDate(d.day) + ": average " + Fmt.amount(d.mean, 2) + unit + " of \(d.n) report" + (d.n == 1 ? "" : "s")
                    + " (" + Fmt.amount(d.min, 2) + "–" + Fmt.amount(d.max, 2) + ", importance up to \(d.maxImportance))")
            m.rect(p.x - 6, p.y - 1.5, 12, 3, attributes: "fill=\"\(Palette.ink)\"")
            m.raw("</g>")
        }
        for p in view.points {
            let x = xOf(local: p.utc + Int64(p.offset)), yy = yOf(p.value)
            m.raw("<g class=\"report-point\" data-importance=\"\(p.importance)\">")
            m.title(Fmt.longDate(p.day) + " " + Fmt.clock(localSeconds: p.utc + Int64(p.offset)) + ": " + Fmt.amount(p.value, 2) + unit
                    + ", importance \(p.importance) (report \(p.reportID))")
            m.raw("<circle cx=\"\(Fmt.coord(x))\" cy=\"\(Fmt.coord(yy))\" r=\"7\" fill=\"\(ImportanceStyle.fill(p.importance))\" stroke=\"#fff\" stroke-width=\"1\"/>")
            m.textElement(x: x, y: yy + 3.5, String(p.importance), attributes: "text-anchor=\"middle\" class=\"t-small\" style=\"fill:#fff;font-weight:700\"")
            m.raw("</g>")
        }
        m.line(l, b, r, b, attributes: "stroke=\"#1F2937\"")
        if view.points.isEmpty {
            m.textElement(x: (l + r) / 2, y: (t + b) / 2, "No reports of this value in the week", attributes: "text-anchor=\"middle\" class=\"t-head t-muted\"")
        }
        m.textElement(x: 16, y: 308, "Dots: readings (the number is their importance). Dashes: the daily summary report's average. Hover or tap for details.",
                      attributes: "class=\"t-small\"")
    }

    static func niceStep(_ span: Double) -> Double {
        let raw = max(span / 5, 1e-9)
        let p = pow10(floorLog10(raw))
        for f in [1.0, 2, 2.5, 5, 10] where raw <= f * p { return f * p }
        return 10 * p
    }

    static func floorLog10(_ v: Double) -> Int {
        guard v.isFinite, v > 0 else { return 0 }  // no loop can end on inf, nan or 0
        var e = 0, x = v
        while x >= 10 { x /= 10; e += 1 }
        while x < 1 { x *= 10; e -= 1 }
        return e
    }

    static func pow10(_ e: Int) -> Double {
        var p = 1.0
        if e >= 0 { for _ in 0..<e { p *= 10 } } else { for _ in 0..<(-e) { p /= 10 } }
        return p
    }
}

/// "Reports per day" as SVG: a bar per day, coloured and numbered by the day's highest importance.
public struct ReportDaysSVG: ChartDrawing {
    let view: ReportDaysView
    public init(view: ReportDaysView) { self.view = view }

    public var width: Double { 800 }
    public var height: Double { 300 }
    public var kind: String { "report-days-chart" }
    public var titleID: String? { nil }
    static let left = 56.0, right = 784.0, top = 64.0, bottom = 250.0

    public func body(_ m: inout Markup) {
        let (l, r, t, b) = (Self.left, Self.right, Self.top, Self.bottom)
        m.raw("<rect width=\"800\" height=\"300\" fill=\"#fff\"/>")
        m.textElement(x: 16, y: 28, "Reports per day", attributes: "class=\"t-title\"")
        m.textElement(x: 16, y: 48, Fmt.shortDate(view.firstDay) + " – " + Fmt.shortDate(view.lastDay) + " · \(view.total) report"
                      + (view.total == 1 ? "" : "s"), attributes: "class=\"t-sub\"")
        ImportanceStyle.legend(&m, x: 600, y: 44)
        let peak = max(view.days.map(\.reports).max() ?? 0, 1)
        let top = max(peak, 3)
        for v in 0...top {
            let y = b - (b - t) * Double(v) / Double(top)
            if v > 0 { m.line(l, y, r, y, attributes: "class=\"grid\"") }
            m.textElement(x: l - 8, y: y + 4, String(v), attributes: "text-anchor=\"end\"")
        }
        m.raw("<text x=\"18\" y=\"\(Fmt.coord((t + b) / 2))\" transform=\"rotate(-90 18 \(Fmt.coord((t + b) / 2)))\" text-anchor=\"middle\" class=\"t-small\">reports</text>")
        let slot = (r - l) / Double(max(view.days.count, 1))
        let barW = min(36, slot * 0.7)
        let labelEvery = max(1, view.days.count / 14)
        for (i, d) in view.days.enumerated() {
            let cx = l + slot * (Double(i) + 0.5)
            let h = (b - t) * Double(d.reports) / Double(top)
            m.raw("<g class=\"report-day\" data-date=\"\(CivilDate.isoDate(fromDays: d.day))\" data-reports=\"\(d.reports)\">")
            m.title(Fmt.longDate(d.day) + ": \(d.reports) report" + (d.reports == 1 ? "" : "s")
                    + (d.reports > 0 ? ", importance up to \(d.maxImportance)" : ""))
            if h > 0 {
                m.rect(cx - barW / 2, b - h, barW, h, attributes: "rx=\"3\" fill=\"\(ImportanceStyle.fill(d.maxImportance))\"")
                if slot > 16 { m.textElement(x: cx, y: b - h - 5, String(d.reports), attributes: "text-anchor=\"middle\" class=\"t-small\"") }
            }
            if i % labelEvery == 0 {
                m.textElement(x: cx, y: b + 16, Fmt.dayMonth(d.day), attributes: "text-anchor=\"middle\" class=\"t-small\"")
            }
            m.raw("</g>")
        }
        m.line(l, b, r, b, attributes: "stroke=\"#1F2937\"")
        if view.total == 0 {
            m.textElement(x: (l + r) / 2, y: (t + b) / 2, "No reports in this period", attributes: "text-anchor=\"middle\" class=\"t-head t-muted\"")
        }
        m.textElement(x: 16, y: 288, "Bars: reports made each day, coloured by the highest importance of their values. Hover or tap a bar.",
                      attributes: "class=\"t-small\"")
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
