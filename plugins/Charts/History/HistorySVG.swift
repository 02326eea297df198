/// The seed-003 history view as a bar chart: sessions per day (week, month) or per month (year),
/// with the minutes and mean accomplishment of each bar in its tooltip.
public struct HistorySVG: ChartDrawing {
    let chart: HistoryChart
    public init(chart: HistoryChart) { self.chart = chart }

    static let width = 800.0, height = 300.0
    public var width: Double { Self.width }
    public var height: Double { Self.height }
    public var kind: String { "history-chart" }
    public var titleID: String? { nil }
    static let left = 56.0, right = 784.0, top = 64.0, bottom = 250.0

    public func body(_ m: inout Markup) {
        m.raw("<rect width=\"800\" height=\"300\" fill=\"#fff\"/>")
        let total = chart.totalSessions
        m.textElement(x: 16, y: 28, "Toothbrushing · " + chart.label, attributes: "class=\"t-title\"")
        m.textElement(x: 16, y: 48, chart.from + " – " + chart.to + " · \(total) session\(total == 1 ? "" : "s")", attributes: "class=\"t-sub\"")
        let (l, r, t, b) = (Self.left, Self.right, Self.top, Self.bottom)
        let peak = max(chart.buckets.map(\.sessions).max() ?? 0, 1)
        let step = peak <= 5 ? 1 : peak <= 10 ? 2 : peak <= 25 ? 5 : peak <= 50 ? 10 : Int((Double(peak) / 5).rounded(.up))
        let top = ((peak + step - 1) / step) * step
        for v in stride(from: 0, through: top, by: step) {
            let y = b - (b - t) * Double(v) / Double(top)
            if v > 0 { m.line(l, y, r, y, attributes: "class=\"grid\"") }
            m.textElement(x: l - 8, y: y + 4, String(v), attributes: "text-anchor=\"end\"")
        }
        m.raw("<text x=\"18\" y=\"\(Fmt.coord((t + b) / 2))\" transform=\"rotate(-90 18 \(Fmt.coord((t + b) / 2)))\" text-anchor=\"middle\" class=\"t-small\">sessions</text>")
        let slot = (r - l) / Double(max(chart.buckets.count, 1))
        let barW = min(44, slot * 0.7)
        for (i, bucket) in chart.buckets.enumerated() {
            let cx = l + slot * (Double(i) + 0.5)
            let h = (b - t) * Double(bucket.sessions) / Double(top)
            m.raw("<g class=\"history-bar\" data-from=\"\(bucket.from)\" data-sessions=\"\(bucket.sessions)\">")
            var tip = bucket.label + " (" + (bucket.from == bucket.to ? bucket.from : bucket.from + " – " + bucket.to) + "): "
            tip += "\(bucket.sessions) session\(bucket.sessions == 1 ? "" : "s")"
            if bucket.sessions > 0 {
                tip += ", " + Fmt.fixed(bucket.minutes, 1) + " min"
                if let a = bucket.accomplishment { tip += ", accomplishment " + Fmt.fixed(a, 0) + "%" }
            }
            m.title(tip)
            if h > 0 {
                m.rect(cx - barW / 2, b - h, barW, h, attributes: "rx=\"3\" fill=\"\(Palette.skyBlue)\" stroke=\"\(Palette.blue)\" stroke-width=\"1\"")
                if slot > 18 { m.textElement(x: cx, y: b - h - 5, String(bucket.sessions), attributes: "text-anchor=\"middle\" class=\"t-small\"") }
            }
            if chart.buckets.count <= 12 || i % 2 == 0 {
                m.textElement(x: cx, y: b + 16, bucket.label, attributes: "text-anchor=\"middle\"" + (chart.buckets.count > 12 ? " class=\"t-small\"" : ""))
            }
            m.raw("</g>")
        }
        m.line(l, b, r, b, attributes: "stroke=\"#1F2937\"")
        if chart.isEmpty {
            m.textElement(x: (l + r) / 2, y: (t + b) / 2, "No sessions in this period", attributes: "text-anchor=\"middle\" class=\"t-head t-muted\"")
        }
        m.textElement(x: 16, y: 288, "Bars: sessions per " + (chart.period == .year ? "month" : "day") + ". Hover or tap a bar for minutes and accomplishment.",
                      attributes: "class=\"t-small\"")
    }
}
