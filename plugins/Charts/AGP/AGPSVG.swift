import HealthPipeAnalytics
import HealthPipeCore

/// Draws the AGP report on one A4 page (800 × 1131, portrait), in the order clinicians know:
/// glucose statistics and targets beside the time-in-ranges bar, the AGP curve, then the daily
/// glucose profiles in rows of seven.
public struct AGPSVG: ChartDrawing {
    let view: AGPView
    static let width = 800.0, height = 1131.0

    public init(view: AGPView) { self.view = view }

    var unit: DisplayUnit { view.unit }
    public var width: Double { Self.width }
    public var height: Double { Self.height }
    public var kind: String { "agp-chart" }
    public var titleID: String? { "agp-t" }

    public func body(_ m: inout Markup) {
        m.raw("<title id=\"agp-t\">")
        m.escaped("AGP report, " + periodText + ": " + view.ranges.map { $0.title + " " + Fmt.percent($0.percent) + "%" }.joined(separator: ", "))
        m.raw("</title>")
        m.raw("<rect width=\"800\" height=\"1131\" fill=\"#fff\"/>")
        header(&m)
        dataNotice(&m)
        statistics(&m)
        timeInRanges(&m)
        profile(&m)
        dailyProfiles(&m)
        m.textElement(x: 24, y: 1120, "HealthPipe · \(view.statistics.readings) readings · percentiles of each 5-minute time of day across the days (as glucose_agp stores them) · colours safe for colour-blind readers",
                      attributes: "class=\"t-small\"")
    }

    var periodText: String { Fmt.shortDate(view.firstDay) + " – " + Fmt.shortDate(view.lastDay) }

    func header(_ m: inout Markup) {
        // Title, then who and when on a line of their own: no subject name, however long, can run into the title.
        m.textElement(x: 24, y: 32, "AGP Report: Continuous Glucose Monitoring", attributes: "class=\"t-title\" style=\"font-size:20px\"")
        m.raw("<text x=\"24\" y=\"53\" class=\"t-sub\"><tspan class=\"t-head\">")
        m.escaped(view.subject)
        m.raw("</tspan>")
        m.escaped(" · " + Fmt.dayMonth(view.firstDay) + " – " + Fmt.dayMonth(view.lastDay) + " " + String(CivilDate.date(fromDays: view.lastDay).year)
                  + " · \(view.days) days, \(view.statistics.daysWithData) with data")
        m.raw("</text>")
        m.line(16, 60, 784, 60, attributes: "stroke=\"#1F2937\" stroke-width=\"1.5\"")
    }

    /// How much of the period has data, always; a warning when it is short of the consensus's 14 days / 70 %.
    func dataNotice(_ m: inout Markup) {
        let s = view.statistics
        let active = Fmt.fixed(s.activePercent ?? 0, 1) + "%"
        if let warning = view.insufficientData {
            m.raw("<g class=\"data-notice insufficient\" role=\"alert\">")
            m.rect(16, 67, 768, 26, attributes: "rx=\"4\" fill=\"#FDF2F8\" stroke=\"#882255\" stroke-width=\"1.5\"")
            m.textElement(x: 28, y: 85, "⚠ " + warning, attributes: "class=\"t-head\" style=\"fill:#882255;font-size:12px\"")
        } else {
            m.raw("<g class=\"data-notice\">")
            m.rect(16, 67, 768, 26, attributes: "rx=\"4\" fill=\"#F9FAFB\" stroke=\"#E5E7EB\"")
            m.textElement(x: 28, y: 85, "Enough data: \(s.daysWithData) of \(view.days) days have readings, CGM active \(active) of the period (consensus: 14 days, 70%).",
                          attributes: "style=\"font-size:12px\"")
        }
        m.raw("</g>")
    }

    func sectionHead(_ m: inout Markup, x: Double, y: Double, _ text: String) {
        m.textElement(x: x, y: y, text, attributes: "class=\"t-head\" style=\"letter-spacing:.06em\"")
    }

    // MARK: Statistics and targets

    func statistics(_ m: inout Markup) {
        let l = 24.0, r = 456.0
        m.rect(l - 8, 100, r - l + 16, 376, attributes: "fill=\"#F9FAFB\" stroke=\"#E5E7EB\"")
        sectionHead(&m, x: l, y: 122, "GLUCOSE STATISTICS AND TARGETS")
        let s = view.statistics
        func row(_ y: Double, _ label: String, _ value: String, big: Bool = false, attributes: String = "") {
            m.textElement(x: l, y: y, label, attributes: big ? "style=\"font-size:12.5px\"" : "")
            m.textElement(x: r, y: y, value, attributes: "text-anchor=\"end\" class=\"" + (big ? "t-big" : "t-head") + "\"" + attributes)
        }
        row(146, Fmt.dayMonth(view.firstDay) + " – " + Fmt.dayMonth(view.lastDay) + " " + String(CivilDate.date(fromDays: view.lastDay).year),
            "\(view.days) days")
        let short = view.insufficientData != nil ? " style=\"fill:#882255\"" : ""
        row(164, "Days with data", "\(s.daysWithData) of \(view.days)", attributes: " data-stat=\"days-with-data\"" + short)
        row(182, "% time CGM is active (whole period)", s.activePercent.map { Fmt.fixed($0, 1) + "%" } ?? "–", attributes: " data-stat=\"active-percent\"" + short)
        m.line(l, 194, r, 194, attributes: "stroke=\"#D1D5DB\"")
        m.textElement(x: l, y: 214, "Ranges and targets for type 1 or type 2 diabetes", attributes: "class=\"t-head\" style=\"font-size:12px\"")
        m.textElement(x: l, y: 233, "Glucose ranges", attributes: "class=\"t-small\"")
        m.textElement(x: r, y: 233, "Targets: % of readings (time per day)", attributes: "class=\"t-small\" text-anchor=\"end\"")
        let u = " " + unit.rawValue
        let targets: [(String, String)] = [
            ("Target range " + ChartBands(scheme: .consensus).rangeText(2, unit: unit) + u, "Greater than 70% (16h 48min)"),
            ("Below " + unit.edgeText(70) + u, "Less than 4% (58min)"),
            ("Below " + unit.edgeText(54) + u, "Less than 1% (14min)"),
            ("Above " + unit.edgeText(180) + u, "Less than 25% (6h)"),
            ("Above " + unit.edgeText(250) + u, "Less than 5% (1h 12min)"),
        ]
        for (i, t) in targets.enumerated() {
            let y = 253 + Double(i) * 18
            if i == 0 { m.rect(l - 4, y - 13, r - l + 8, 18, attributes: "fill=\"#E8F1F8\"") }
            m.textElement(x: l, y: y, t.0, attributes: i == 0 ? "style=\"font-weight:700\"" : "")
            m.textElement(x: r, y: y, t.1, attributes: "text-anchor=\"end\"" + (i == 0 ? " style=\"font-weight:700\"" : ""))
        }
        m.textElement(x: l, y: 339, "Each 5% increase in time in range is clinically beneficial.", attributes: "class=\"t-small\"")
        m.textElement(x: l, y: 353, "Older or high-risk people: more than 50% in range, less than 1% below " + unit.edgeText(70) + " " + unit.rawValue + ".",
                      attributes: "class=\"t-small\"")
        m.line(l, 360, r, 360, attributes: "stroke=\"#D1D5DB\"")
        row(382, "Average glucose", s.mean.map { unit.text($0) + " " + unit.rawValue } ?? "–", big: true)
        row(406, "Glucose management indicator (GMI)", s.gmi.map { Fmt.fixed($0, 1) + "%" } ?? "–", big: true)
        row(430, "Glucose variability", s.cv.map { Fmt.fixed($0, 1) + "%" } ?? "–", big: true)
        m.textElement(x: l, y: 442, "Defined as percent coefficient of variation (%CV); target ≤ 36%", attributes: "class=\"t-small\"")
        row(466, "Glycemia risk index (GRI)", s.gri.map { Fmt.fixed($0, 1) + " · zone " + GRIZone.letter($0) } ?? "–", big: true,
            attributes: " data-stat=\"gri\"")
    }

    // MARK: Time in ranges

    func timeInRanges(_ m: inout Markup) {
        let l = 480.0, r = 776.0
        m.rect(l - 8, 100, r - l + 16, 376, attributes: "fill=\"#F9FAFB\" stroke=\"#E5E7EB\"")
        sectionHead(&m, x: l, y: 122, "TIME IN RANGES")
        let barX = l + 6, barW = 38.0, top = 140.0, bottom = 418.0
        // Very high on top, very low at the bottom; a share > 0 stays visible.
        let parts = Array(view.ranges.reversed())
        let total = max(parts.reduce(0) { $0 + $1.percent }, 1e-9)
        let heights = parts.map { $0.percent > 0 ? max(3, ($0.percent / total) * (bottom - top - 8)) : 0 }
        let scale = (bottom - top - 8) / max(heights.reduce(0, +), 1e-9)
        var y = top
        var centres: [Double] = []
        m.raw("<g class=\"tir-bar\">")
        for (p, h0) in zip(parts, heights) {
            let h = h0 * min(1, scale)
            if h > 0 {
                m.rect(barX, y, barW, h, attributes: "class=\"tir-part\" data-range=\"\(Markup.escape(p.name))\" fill=\"\(Palette.rangeBar(level: p.level))\" stroke=\"#fff\" stroke-width=\"1.5\"")
            }
            centres.append(y + h / 2)
            y += h + (h > 0 ? 2 : 0)
        }
        m.raw("</g>")
        // Labels at fixed slots (parts can be thin), joined to their part by an elbow line.
        let slots = [154.0, 202.0, 278.0, 350.0, 398.0]
        for (i, p) in parts.enumerated() {
            let ly = slots[i]
            let colour = Palette.rangeBar(level: p.level)
            m.raw("<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1\" points=\"\(Fmt.coord(barX + barW + 2)),\(Fmt.coord(centres[i])) \(Fmt.coord(barX + barW + 12)),\(Fmt.coord(ly - 4)) \(Fmt.coord(barX + barW + 20)),\(Fmt.coord(ly - 4))\"/>")
            let lx = barX + barW + 24
            m.raw("<text x=\"\(Fmt.coord(lx))\" y=\"\(Fmt.coord(ly))\"><tspan class=\"t-head\" style=\"fill:\(colour)\">")
            m.escaped(p.title)
            m.raw("</tspan><tspan class=\"t-small\" dx=\"6\">")
            m.escaped(p.range + " " + unit.rawValue)
            m.raw("</tspan></text>")
            m.textElement(x: lx, y: ly + 14, "target " + p.target, attributes: "class=\"t-small\"")
            m.textElement(x: r, y: ly, Fmt.percent(p.percent) + "%", attributes: "class=\"t-big\" text-anchor=\"end\" data-range=\"\(Markup.escape(p.name))\"")
            // A line below the target: "target <25% above 10.0" and "3h 22min a data day" do not fit side by side.
            m.textElement(x: r, y: ly + 27, Fmt.duration(minutes: p.percent * 14.4) + " " + view.perDayText, attributes: "class=\"t-small\" text-anchor=\"end\"")
        }
        // Time in tight range under the bar: no consensus target yet, so no target line.
        m.line(l, 432, r, 432, attributes: "stroke=\"#D1D5DB\"")
        m.textElement(x: l, y: 452, "Time in tight range", attributes: "class=\"t-head\"")
        m.textElement(x: l, y: 467, unit.edgeText(70) + "–" + unit.edgeText(140) + " " + unit.rawValue, attributes: "class=\"t-small\"")
        let tight = view.statistics.tightRange
        m.textElement(x: r, y: 455, tight.map { Fmt.percent($0) + "%" } ?? "–", attributes: "class=\"t-big\" text-anchor=\"end\" data-stat=\"titr\"")
        if let tight {
            m.textElement(x: r, y: 469, Fmt.duration(minutes: tight * 14.4) + " " + view.perDayText, attributes: "class=\"t-small\" text-anchor=\"end\"")
        }
    }

    // MARK: AGP curve

    static let curveLeft = 72.0, curveRight = 736.0, curveTop = 530.0, curveBottom = 770.0

    func cx(_ minute: Double) -> Double { Self.curveLeft + (Self.curveRight - Self.curveLeft) * minute / 1440 }
    func cy(_ mgdl: Double) -> Double { cyUnit(unit.value(mgdl)) }
    func cyUnit(_ v: Double) -> Double {
        Self.curveBottom - (Self.curveBottom - Self.curveTop) * min(max(v, 0), unit.agpAxisMax) / unit.agpAxisMax
    }

    func profile(_ m: inout Markup) {
        sectionHead(&m, x: 24, y: 500, "AMBULATORY GLUCOSE PROFILE (AGP)")
        m.textElement(x: 24, y: 516, "AGP is a summary of glucose values from the report period, with median (50%) and other percentiles shown as if occurring in a single day.",
                      attributes: "class=\"t-small\"")
        let (l, r, t, b) = (Self.curveLeft, Self.curveRight, Self.curveTop, Self.curveBottom)
        m.rect(l, cy(180), r - l, cy(70) - cy(180), attributes: "fill=\"#E8F1F8\"")
        for v in unit.agpTicks {
            let yy = cyUnit(v)
            let mgdl = unit == .mgdL ? v : v * CanonicalUnits.mgdlPerMmol
            let isTarget = abs(mgdl - 70) < 2 || abs(mgdl - 180) < 2
            if v > 0 && v < unit.agpAxisMax {
                m.line(l, yy, r, yy, attributes: isTarget ? "stroke=\"#2F6F99\" stroke-width=\"1.2\"" : "stroke=\"#9CA3AF\" stroke-dasharray=\"4 3\"")
            }
            // 54 and 70 sit close together: nudge their labels apart.
            let nudge = abs(mgdl - 54) < 2 ? 3.0 : abs(mgdl - 70) < 2 ? -2.0 : 0
            m.textElement(x: l - 8, y: yy + 4 + nudge, Fmt.fixed(v, v == 0 || v == unit.agpAxisMax ? 0 : unit.decimals), attributes: "text-anchor=\"end\"" + (isTarget ? " style=\"font-weight:700\"" : ""))
        }
        m.raw("<text x=\"\(Fmt.coord(l - 46))\" y=\"\(Fmt.coord((t + b) / 2))\" transform=\"rotate(-90 \(Fmt.coord(l - 46)) \(Fmt.coord((t + b) / 2)))\" text-anchor=\"middle\" class=\"t-small\">")
        m.escaped(unit.rawValue)
        m.raw("</text>")
        for h in stride(from: 0, through: 24, by: 3) {
            let xx = cx(Double(h * 60))
            if h > 0 && h < 24 { m.line(xx, t, xx, b, attributes: "class=\"grid\"") }
            m.textElement(x: xx, y: b + 16, Fmt.pad2(h) + ":00", attributes: "text-anchor=\"middle\"")
        }
        m.rect(l, t, r - l, b - t, attributes: "class=\"frame\"")

        // Columns 00:05 … 24:00 in axis order; a column without data breaks the curves.
        let columns = view.percentiles.map { (minute: Double(AGPView.axisMinute($0.minuteOfDay)), p: $0) }.sorted { $0.minute < $1.minute }
        guard !columns.isEmpty else {
            m.textElement(x: (l + r) / 2, y: (t + b) / 2, "Not enough data for a profile", attributes: "text-anchor=\"middle\" class=\"t-head t-muted\"")
            return
        }
        var runs: [[(minute: Double, p: AGPPoint)]] = [[]]
        for c in columns {
            if let last = runs[runs.count - 1].last, c.minute - last.minute > 5 { runs.append([]) }
            runs[runs.count - 1].append(c)
        }
        m.raw("<g class=\"agp-bands\">")
        for run in runs where run.count > 1 {
            band(&m, run, upper: \.p95, lower: \.p05, fill: "#BFD7EA")
            band(&m, run, upper: \.p75, lower: \.p25, fill: "#5B9BD5")
        }
        m.raw("</g>")
        let curves: [(name: String, key: KeyPath<AGPPoint, Double>, style: String)] = [
            ("5", \.p05, "stroke=\"#5B9BD5\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\""),
            ("25", \.p25, "stroke=\"#2E6DA4\" stroke-width=\"1.2\""),
            ("50", \.p50, "stroke=\"#0B3D66\" stroke-width=\"2.8\""),
            ("75", \.p75, "stroke=\"#2E6DA4\" stroke-width=\"1.2\""),
            ("95", \.p95, "stroke=\"#5B9BD5\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\""),
        ]
        for c in curves {
            var d = ""
            for run in runs {
                d += Markup.path(run.map { (x: cx($0.minute), y: cy($0.p[keyPath: c.key])) })
            }
            m.raw("<path class=\"percentile\" data-p=\"\(c.name)\" fill=\"none\" stroke-linejoin=\"round\" \(c.style) d=\"\(d)\"><title>\(c.name)th percentile</title></path>")
        }
        // Percentile labels at the right edge, pushed apart so they never overlap.
        let last = columns[columns.count - 1].p
        var ys = [last.p95, last.p75, last.p50, last.p25, last.p05].map { cy($0) }
        for i in 1..<ys.count where ys[i] - ys[i - 1] < 12 { ys[i] = ys[i - 1] + 12 }
        for (i, name) in ["95%", "75%", "50%", "25%", "5%"].enumerated() {
            m.textElement(x: r + 6, y: ys[i] + 4, name, attributes: "class=\"t-small\"" + (name == "50%" ? " style=\"font-weight:700;fill:#0B3D66\"" : ""))
        }
    }

    func band(_ m: inout Markup, _ run: [(minute: Double, p: AGPPoint)], upper: KeyPath<AGPPoint, Double>, lower: KeyPath<AGPPoint, Double>,
              fill: String) {
        var pts = run.map { Fmt.coord(cx($0.minute)) + "," + Fmt.coord(cy($0.p[keyPath: upper])) }
        pts += run.reversed().map { Fmt.coord(cx($0.minute)) + "," + Fmt.coord(cy($0.p[keyPath: lower])) }
        m.raw("<polygon fill=\"\(fill)\" points=\"\(pts.joined(separator: " "))\"/>")
    }

    // MARK: Daily profiles

    func dailyProfiles(_ m: inout Markup) {
        sectionHead(&m, x: 24, y: 812, "DAILY GLUCOSE PROFILES")
        let shown = view.daily
        let note = view.days > shown.count ? " The last \(shown.count) days of the period are shown." : ""
        m.textElement(x: 24, y: 828, "Each daily profile represents a midnight-to-midnight period, with the target range shaded." + note,
                      attributes: "class=\"t-small\"")
        let l = 40.0, r = 776.0, cols = 7
        let cellW = (r - l) / Double(cols)
        let rows = max(1, (shown.count + cols - 1) / cols)
        let rowH = min(138.0, (1100.0 - 840) / Double(rows))
        let top = 840.0
        for (i, d) in shown.enumerated() {
            let x0 = l + Double(i % cols) * cellW, y0 = top + Double(i / cols) * rowH
            let pt = y0 + 16, pb = y0 + rowH - 10, pl = x0 + 2, pr = x0 + cellW - 2
            func yy(_ mgdl: Double) -> Double { pb - (pb - pt) * min(max(unit.value(mgdl), 0), unit.agpAxisMax) / unit.agpAxisMax }
            let (_, _, dd) = CivilDate.date(fromDays: d.day)
            m.raw("<g class=\"daily-profile\" data-date=\"\(CivilDate.isoDate(fromDays: d.day))\">")
            m.textElement(x: pl, y: y0 + 11, Fmt.weekday(d.day) + " " + String(dd), attributes: "class=\"t-small\" style=\"font-weight:700;fill:#1F2937\"")
            m.rect(pl, pt, pr - pl, pb - pt, attributes: "fill=\"#fff\" stroke=\"#D1D5DB\"")
            m.rect(pl, yy(180), pr - pl, yy(70) - yy(180), attributes: "fill=\"#E8F1F8\"")
            if i % cols == 0 {
                for v in [70.0, 180.0] {
                    m.textElement(x: pl - 4, y: yy(v) + 3, unit.edgeText(v), attributes: "class=\"t-small\" text-anchor=\"end\"")
                }
            }
            if d.points.isEmpty {
                m.textElement(x: (pl + pr) / 2, y: (pt + pb) / 2 + 3, "no data", attributes: "class=\"t-small\" text-anchor=\"middle\"")
            } else {
                let xy = d.points.map { (x: pl + (pr - pl) * $0.minute / 1440, y: yy($0.mgdl)) }
                let path = Markup.path(xy, breakBefore: { d.points[$0].minute - d.points[$0 - 1].minute > 20 })
                let id = "dp" + String(i)
                // The trace, then its parts above and below the target range in their colours.
                m.raw("<defs><clipPath id=\"\(id)-hi\"><rect x=\"\(Fmt.coord(pl))\" y=\"\(Fmt.coord(pt - 2))\" width=\"\(Fmt.coord(pr - pl))\" height=\"\(Fmt.coord(yy(180) - pt + 2))\"/></clipPath>")
                m.raw("<clipPath id=\"\(id)-lo\"><rect x=\"\(Fmt.coord(pl))\" y=\"\(Fmt.coord(yy(70)))\" width=\"\(Fmt.coord(pr - pl))\" height=\"\(Fmt.coord(pb - yy(70) + 2))\"/></clipPath>")
                // No stroke on the shared path itself, so each <use> can colour it.
                m.raw("<path id=\"\(id)\" d=\"\(path)\" fill=\"none\"/></defs>")
                m.raw("<use href=\"#\(id)\" stroke=\"#1F2937\" stroke-width=\"1\"/>")
                m.raw("<use href=\"#\(id)\" clip-path=\"url(#\(id)-hi)\" stroke=\"\(Palette.vermillion)\" stroke-width=\"1.6\"/>")
                m.raw("<use href=\"#\(id)\" clip-path=\"url(#\(id)-lo)\" stroke=\"\(Palette.wine)\" stroke-width=\"1.6\"/>")
            }
            m.raw("</g>")
        }
    }
}
