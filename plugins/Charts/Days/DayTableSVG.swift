import HealthPipeCore

/// The day table as a standalone SVG (`healthpipe chart days --svg`): one row per shown day with
/// low/avg/high, the range bar, the five labelled icons and the favourite star.
public struct DayTableSVG: ChartDrawing {
    let table: DayTable
    let bands: ChartBands

    public init(table: DayTable, bands: ChartBands) {
        self.table = table
        self.bands = bands
    }

    static let rowHeight = 28.0, top = 78.0
    public var width: Double { 800 }
    public var height: Double { Self.top + Double(max(table.shown.count, 1)) * Self.rowHeight + 30 }
    public var kind: String { "days-chart" }
    public var titleID: String? { nil }

    public func body(_ m: inout Markup) {
        let rows = table.shown
        m.raw("<rect width=\"800\" height=\"\(Fmt.coord(height))\" fill=\"#fff\"/>")
        let unit = table.unit
        m.textElement(x: 16, y: 28, "Days · " + table.subject, attributes: "class=\"t-title\"")
        var filterText = DayTable.Flag.allCases.filter { table.filter.flags.contains($0) }.map(\.title).joined(separator: " + ")
        if let n = table.filter.lastDays { filterText += (filterText.isEmpty ? "" : ", ") + "last \(n) days" }
        if table.filter.favouritesOnly { filterText += (filterText.isEmpty ? "" : ", ") + "favourites" }
        m.textElement(x: 16, y: 48, Fmt.shortDate(table.firstDay) + " – " + Fmt.shortDate(table.lastDay) + " · \(rows.count) of \(table.rows.count) days"
                      + (filterText.isEmpty ? "" : " · filter: " + filterText), attributes: "class=\"t-sub\"")
        let header: [(Double, String, String)] = [(16, "Day", "start"), (210, "Low", "end"), (262, "Avg", "end"), (314, "High", "end"),
                                                  (330, "Range (0–\(Fmt.fixed(unit.axisMax, 0)) \(unit.rawValue))", "start"), (530, "Hypo · Hyper · Exercise · Stress · Illness", "start"),
                                                  (790, "★", "end")]
        for (x, t, anchor) in header { m.textElement(x: x, y: 70, t, attributes: "class=\"t-small\" text-anchor=\"\(anchor)\"") }
        if rows.isEmpty { m.textElement(x: 16, y: Self.top + 18, "No day matches the filter.", attributes: "class=\"t-muted\"") }
        for (i, r) in rows.enumerated() {
            let y = Self.top + Double(i) * Self.rowHeight
            if i % 2 == 0 { m.rect(8, y, 784, Self.rowHeight, attributes: "fill=\"#F9FAFB\"") }
            let base = y + 18
            m.raw("<g class=\"day-row\" data-date=\"\(CivilDate.isoDate(fromDays: r.day))\">")
            m.textElement(x: 16, y: base, Fmt.shortDate(r.day), attributes: "style=\"font-weight:700\"")
            m.textElement(x: 210, y: base, r.low.map { unit.text($0) } ?? "–", attributes: "text-anchor=\"end\"")
            m.textElement(x: 262, y: base, r.avg.map { unit.text($0) } ?? "–", attributes: "text-anchor=\"end\" style=\"font-weight:700\"")
            m.textElement(x: 314, y: base, r.high.map { unit.text($0) } ?? "–", attributes: "text-anchor=\"end\"")
            MiniRangeBar.draw(&m, x: 330, y: y + 8, width: 188, height: 12, row: r, bands: bands, unit: unit)
            var x = 530.0
            for f in DayTable.Flag.allCases {
                let on = r.has(f)
                let w = Double(f.title.count) * 6.2 + 10
                let colour = FlagBadge.colour(f)
                m.rect(x, y + 6, w, 16, attributes: "rx=\"8\" fill=\"\(on ? colour : "#fff")\" stroke=\"\(on ? colour : "#D1D5DB")\"")
                m.textElement(x: x + w / 2, y: y + 17.5, f.title, attributes: "text-anchor=\"middle\" class=\"t-small\" style=\"fill:\(on ? "#fff" : "#9CA3AF")\"")
                x += w + 3
            }
            m.textElement(x: 790, y: base + 1, r.favourite ? "★" : "☆", attributes: "text-anchor=\"end\" style=\"font-size:15px;fill:\(r.favourite ? Palette.orange : "#9CA3AF")\"")
            m.raw("</g>")
        }
    }
}
