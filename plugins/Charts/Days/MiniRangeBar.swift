/// The seed-002 cell's low/avg/high as a small horizontal range bar on the bands (0–20 mmol/L
/// left to right), the same marks as the day view's side views: dashes at low and high, a dot at the mean.
enum MiniRangeBar {
    static func draw(_ m: inout Markup, x: Double, y: Double, width: Double, height: Double, row: DayTable.Row,
                     bands: ChartBands, unit: DisplayUnit) {
        func px(_ mgdl: Double) -> Double { x + width * min(max(unit.value(mgdl), 0), unit.axisMax) / unit.axisMax }
        for b in bands.bands {
            let from = b.lower.map(px) ?? x, to = b.upper.map(px) ?? x + width
            if to > from { m.rect(from, y, to - from, height, attributes: "fill=\"\(b.fill)\"") }
        }
        m.rect(x, y, width, height, attributes: "fill=\"none\" stroke=\"#D1D5DB\" stroke-width=\".8\"")
        guard let lo = row.low, let avg = row.avg, let hi = row.high else { return }
        let mid = y + height / 2
        m.line(px(lo), mid, px(hi), mid, attributes: "class=\"bar-line\"")
        m.line(px(lo), y + 2, px(lo), y + height - 2, attributes: "class=\"bar-line\"")
        m.line(px(hi), y + 2, px(hi), y + height - 2, attributes: "class=\"bar-line\"")
        m.raw("<circle class=\"bar-mean\" cx=\"\(Fmt.coord(px(avg)))\" cy=\"\(Fmt.coord(mid))\" r=\"\(Fmt.coord(height / 2 - 1))\"/>")
    }
}

/// The seed's summary icons as labelled badges: filled when the day has it (colour and text, never colour alone).
enum FlagBadge {
    static func colour(_ f: DayTable.Flag) -> String {
        switch f {
        case .hypo: return Palette.wine
        case .hyper: return "#B35C00"
        case .exercise: return Palette.blue
        case .stress: return "#5B4B8A"
        case .illness: return "#4B5563"
        }
    }
}
