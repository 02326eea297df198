import HealthPipeCore

/// Draws the bifocal day view (seeds 000/001): the three previous days in a side view on the
/// left, the day's graph in the middle, the three next days on the right. The side views lean
/// away like the seeds' 45° rotated containers (drawn as a perspective: shorter at the outer edge).
public struct DaySVG: ChartDrawing {
    let view: DayView
    /// Unique per day on a page (element ids, clip paths).
    let id: String
    /// On the page a checkbox shows or hides basal insulin; a standalone SVG follows the setting.
    let inPage: Bool
    let layout: DayLayout

    /// Height of a side view's outer edge relative to its inner edge.
    static let perspective = 0.74

    public init(view: DayView, inPage: Bool = false, layout: DayLayout = .wide) {
        self.view = view
        self.inPage = inPage
        self.layout = layout
        id = "d" + CivilDate.isoDate(fromDays: view.day).replacingDashes() + layout.idSuffix
    }

    var unit: DisplayUnit { view.unit }
    public var width: Double { layout.width }
    /// The compact chart grows by the band key's rows after the first.
    public var height: Double { layout.height + (layout.hasSides ? 0 : 15 * Double(bandKeyItems.last?.row ?? 0)) }
    public var kind: String { layout.hasSides ? "day-chart" : "day-chart compact" }
    public var titleID: String? { id + "-t" }

    func x(minute: Double) -> Double { layout.plotLeft + (layout.plotRight - layout.plotLeft) * minute / 1440 }
    func y(_ mgdl: Double) -> Double {
        let v = min(max(unit.value(mgdl), 0), unit.axisMax)
        return layout.plotBottom - (layout.plotBottom - layout.plotTop) * v / unit.axisMax
    }
    func y(unitValue v: Double) -> Double { layout.plotBottom - (layout.plotBottom - layout.plotTop) * v / unit.axisMax }

    public func body(_ m: inout Markup) {
        let s = view.stats, c = view.checkStats
        func numbers(_ n: (count: Int, min: Double?, mean: Double?, max: Double?), _ what: String) -> String {
            "\(n.count) \(what), lowest \(unit.text(n.min!)), mean \(unit.text(n.mean!)), highest \(unit.text(n.max!)) \(unit.rawValue)"
        }
        m.raw("<title id=\"\(id)-t\">")
        m.escaped("Glucose on " + Fmt.longDate(view.day) + (s.count > 0 ? ": " + numbers(s, "readings") + (c.count > 0 ? ", \(c.count) BG checks" : "")
            : c.count > 0 ? ": " + numbers(c, "BG checks") : ": no readings"))
        m.raw("</title>")
        m.raw("<rect width=\"\(Fmt.coord(layout.width))\" height=\"\(Fmt.coord(height))\" fill=\"#fff\"/>")
        header(&m)
        if layout.hasSides {
            sideView(&m, days: view.previous, left: 12, outerOnLeft: true, caption: "3 days before")
            sideView(&m, days: view.next, left: layout.width - 12 - layout.sideWidth, outerOnLeft: false, caption: "3 days after")
        }
        plot(&m)
        axisEvents(&m)
        lanes(&m)
        // The compact chart has its band key where this note would go (and a phone has no hover).
        guard layout.hasSides else { return }
        var note = "Side views: lowest, mean (●) and highest reading of each day. Hover or tap a point or marker for details."
        if view.notes.contains(where: { $0.kind == .alert || $0.kind == .device }) { note += " On the time axis: ▲ alarms, ■ pump and device events." }
        let order = sources
        if order.count > 1 {
            note = "Traces: " + order.enumerated().map { $0.element + (["", " (grey)", " (light blue)", " (purple)"][$0.offset % 4]) }
                .joined(separator: ", ") + ". " + note
        }
        m.textElement(x: 12, y: layout.height - 12, note, attributes: "class=\"t-small\"")
    }

    // MARK: Header

    /// The day's numbers: the CGM's, with the finger-stick checks counted; a meter user's day, the checks'.
    var summary: String {
        let s = view.stats, c = view.checkStats
        let checks = c.count == 0 ? "" : "\(c.count) BG check\(c.count == 1 ? "" : "s")"
        guard s.count > 0 else {
            guard c.count > 0 else { return "no readings" }
            if c.count == 1 { return "\(unit.text(c.mean!)) \(unit.rawValue) · 1 BG check" }
            return "mean \(unit.text(c.mean!)) · range \(unit.text(c.min!))–\(unit.text(c.max!)) \(unit.rawValue) · " + checks
        }
        // A phone's line has no room for the checks' count: the facts under the chart give it.
        return "mean \(unit.text(s.mean!)) · range \(unit.text(s.min!))–\(unit.text(s.max!)) \(unit.rawValue) · \(s.count) reading\(s.count == 1 ? "" : "s")"
            + (checks.isEmpty || !layout.hasSides ? "" : " · " + checks)
    }

    func header(_ m: inout Markup) {
        // On the page the date is the article's heading already.
        if !inPage { m.textElement(x: 12, y: 24, Fmt.shortDate(view.day), attributes: "class=\"t-title\"") }
        m.textElement(x: inPage ? 12 : 178, y: 24, summary, attributes: "class=\"t-sub\"")
        // Legend, right-aligned.
        var x = layout.width - 12
        let items: [(String, String)] = [("forecast", "Forecast"), ("basal", "Basal"), ("bolus", "Bolus"), ("exercise", "Exercise"),
                                         ("meal", "Meal"), ("check", "BG check"), ("trace", "Glucose")]
        for (kind, label) in items {
            if kind == "check" && view.checks.isEmpty { continue }
            if kind == "basal" && !view.showBasal && !inPage { continue }
            if kind == "trace" && !layout.hasSides { continue }  // no room on a phone; the axis says glucose
            let w = Double(label.count) * 6.4 + 8
            m.raw("<g class=\"legend-\(kind)\">")
            m.textElement(x: x - w + 8, y: layout.legendY, label, attributes: "class=\"t-small\"")
            legendMark(&m, kind: kind, x: x - w - 2, y: layout.legendY - 3.5)
            m.raw("</g>")
            x -= w + layout.legendGap
        }
    }

    func legendMark(_ m: inout Markup, kind: String, x: Double, y: Double) {
        switch kind {
        case "trace": m.line(x - 8, y, x + 6, y, attributes: "class=\"trace\"")
        case "forecast": m.line(x - 8, y, x + 6, y, attributes: "class=\"forecast\"")
        case "check": Self.checkMark(&m, x: x, y: y)
        default: MarkerShape.draw(&m, kind: kind, x: x, y: y, size: 5.5)
        }
    }

    // MARK: Main plot

    func plot(_ m: inout Markup) {
        let (l, r, t, b) = (layout.plotLeft, layout.plotRight, layout.plotTop, layout.plotBottom)
        m.raw("<defs><clipPath id=\"\(id)-clip\"><rect x=\"\(Fmt.coord(l))\" y=\"\(Fmt.coord(t - 2))\" width=\"\(Fmt.coord(r - l))\" height=\"\(Fmt.coord(b - t + 4))\"/></clipPath></defs>")
        // Bands with their names.
        m.raw("<g class=\"bands\">")
        let labels = layout.hasSides ? bandLabelBoxes : []
        for (i, band) in view.bands.bands.enumerated() {
            let top = band.upper.map { y($0) } ?? t, bottom = band.lower.map { y($0) } ?? b
            guard bottom - top > 0.5 else { continue }
            m.rect(l, top, r - l, bottom - top, attributes: "class=\"band band-\(Markup.escape(band.name))\" fill=\"\(band.fill)\"")
            if layout.hasSides, let box = labels.first(where: { $0.band == i }) {
                m.textElement(x: box.anchorX, y: box.y + 10, box.text,
                              attributes: "class=\"t-band\" text-anchor=\"\(box.anchor)\" fill=\"\(band.ink)\" style=\"fill:\(band.ink)\"")
            }
        }
        m.raw("</g>")
        // Grid and axes: every 4 mmol/L and every 6 hours.
        for v in unit.ticks {
            let yy = y(unitValue: v)
            if v > 0 && v < unit.axisMax { m.line(l, yy, r, yy, attributes: "class=\"grid\"") }
            m.textElement(x: l - 7, y: yy + 4, Fmt.fixed(v, 0), attributes: "text-anchor=\"end\"")
        }
        for h in stride(from: 0, through: 24, by: 6) {
            let xx = x(minute: Double(h * 60))
            if h > 0 && h < 24 { m.line(xx, t, xx, b, attributes: "class=\"grid\"") }
            // Without side views the plot nearly reaches the edge: 24:00 ends at its tick.
            let anchor = h == 24 && !layout.hasSides ? "end" : "middle"
            m.textElement(x: h == 24 && !layout.hasSides ? xx + 4 : xx, y: b + 17, Fmt.pad2(h) + ":00", attributes: "text-anchor=\"\(anchor)\"")
        }
        m.rect(l, t, r - l, b - t, attributes: "class=\"frame\"")
        if !layout.hasSides { bandKey(&m, y: b + 36) }
        m.raw("<text x=\"\(Fmt.coord(l - 34))\" y=\"\(Fmt.coord((t + b) / 2))\" transform=\"rotate(-90 \(Fmt.coord(l - 34)) \(Fmt.coord((t + b) / 2)))\" text-anchor=\"middle\" class=\"t-small\">")
        m.escaped("glucose (" + unit.rawValue + ")")
        m.raw("</text>")

        m.raw("<g clip-path=\"url(#\(id)-clip)\">")
        trace(&m)
        forecast(&m)
        checks(&m)
        m.raw("</g>")
        if view.points.isEmpty && view.checks.isEmpty {
            m.textElement(x: (l + r) / 2, y: (t + b) / 2, "No glucose readings this day", attributes: "text-anchor=\"middle\" class=\"t-head t-muted\"")
        }
    }

    /// Sources of the day's readings, most readings first: each gets its own trace (two sensors
    /// worn together would zigzag if joined into one line).
    var sources: [String] {
        var counts: [String: Int] = [:]
        for p in view.points { counts[p.source, default: 0] += 1 }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
    }

    static let traceColours = [Palette.trace, "#4B5563", Palette.skyBlue, Palette.reddishPurple]

    func trace(_ m: inout Markup) {
        let order = sources
        for (i, source) in order.enumerated() {
            let pts = view.points.filter { $0.source == source }
            let colour = Self.traceColours[i % Self.traceColours.count]
            let xy = pts.map { (x: x(minute: $0.minute), y: y($0.mgdl)) }
            // A gap of more than 20 minutes is a gap in the line too.
            let d = Markup.path(xy, breakBefore: { pts[$0].utc - pts[$0 - 1].utc > 1200 })
            let style = i == 0 ? "" : " style=\"stroke:\(colour);stroke-width:1.5\""
            m.raw("<g class=\"source\" data-source=\"")
            m.escaped(source)
            m.raw("\"><path class=\"trace\" d=\"\(d)\"\(style)/>")
            // Written piece by piece: a day has hundreds of readings, each a dot with its tooltip.
            let fill = i == 0 ? "" : " style=\"fill:\(colour)\""
            let unitName = Markup.escape(unit.rawValue), sourceName = order.count > 1 ? " · " + Markup.escape(source) : ""
            for (p, c) in zip(pts, xy) {
                let limit = p.flags.contains(.belowSensorRange) ? " (sensor Low: at or below)" : p.flags.contains(.aboveSensorRange) ? " (sensor High: at or above)" : ""
                m.raw(limit.isEmpty ? "<circle class=\"reading\" cx=\"" as StaticString : "<circle class=\"reading limit\" cx=\"")
                m.coord(c.x)
                m.raw("\" cy=\"" as StaticString)
                m.coord(c.y)
                m.raw("\" r=\"2.1\"" as StaticString)
                m.raw(fill)
                // A phone's dot is too small to tap: the compact layout leaves each reading's tooltip to
                // the wide chart (the page stays within its size goal with both layouts).
                guard layout.hasSides else { m.raw("/>" as StaticString); continue }
                m.raw("><title>" as StaticString)
                m.clock(localSeconds: LocalDays.local(p.utc, p.offset))
                m.raw(" · " as StaticString)
                m.escaped(unit.text(p.mgdl))
                m.raw(" " as StaticString)
                m.raw(unitName)
                m.raw(limit)
                m.raw(sourceName)
                m.raw("</title></circle>" as StaticString)
            }
            m.raw("</g>")
        }
    }

    /// Finger-stick checks: a diamond each, over the trace, every one with its tooltip (a day has a
    /// handful, and on a phone they are what a meter user taps).
    /// Checks whose diamonds would sit on each other (a check and its confirmation a minute later)
    /// are one diamond whose tooltip lists each (`CloseMarks`), its `data-count` how many.
    func checks(_ m: inout Markup) {
        guard !view.checks.isEmpty else { return }
        let checks = view.checks.sorted { $0.utc < $1.utc }
        let xy = checks.map { (x: x(minute: $0.minute), y: y($0.mgdl)) }
        m.raw("<g class=\"checks\">")
        for run in CloseMarks.runs(xy, gap: 8) {
            m.raw(run.count == 1 ? "<g class=\"check-point\"><title>" : "<g class=\"check-point\" data-count=\"\(run.count)\"><title>")
            for (n, p) in checks[run].enumerated() {
                if n > 0 { m.raw("; " as StaticString) }
                m.clock(localSeconds: LocalDays.local(p.utc, p.offset))
                m.raw(" · BG check " as StaticString)
                m.escaped(unit.text(p.mgdl))
                m.raw(" " as StaticString)
                m.escaped(unit.rawValue)
                m.raw(" · " as StaticString)
                m.escaped(p.source)
            }
            m.raw("</title>" as StaticString)
            Self.checkMark(&m, x: xy[run.lowerBound].x, y: xy[run.lowerBound].y)
            m.raw("</g>" as StaticString)
        }
        m.raw("</g>")
    }

    static func checkMark(_ m: inout Markup, x: Double, y: Double, size: Double = 5) {
        m.raw("<polygon class=\"check\" points=\"" as StaticString)
        for (i, p) in [(x, y - size), (x + size, y), (x, y + size), (x - size, y)].enumerated() {
            if i > 0 { m.raw(" " as StaticString) }
            m.coord(p.0)
            m.raw("," as StaticString)
            m.coord(p.1)
        }
        m.raw("\" fill=\"\(Palette.check)\" stroke=\"#fff\" stroke-width=\"1.2\"/>")
    }

    func forecast(_ m: inout Markup) {
        guard let f = view.forecast else { return }
        let midnight = view.midnight
        func minute(_ utc: Int64) -> Double { Double(LocalDays.local(utc, f.offset) - midnight) / 60 }
        let xy = [(x: x(minute: minute(f.issuedAt)), y: y(f.origin))] + f.points.map { (x: x(minute: minute($0.utc)), y: y($0.mgdl)) }
        m.raw("<g class=\"forecast-line\" data-model=\"\(f.model)\">")
        m.raw("<path class=\"forecast\" d=\"\(Markup.path(xy))\"/>")
        for (p, c) in zip(f.points, xy.dropFirst()) {
            m.raw("<circle class=\"forecast-point\" cx=\"\(Fmt.coord(c.x))\" cy=\"\(Fmt.coord(c.y))\" r=\"2.4\">")
            m.title("Forecast (\(f.model)) for " + Fmt.clock(localSeconds: LocalDays.local(p.utc, f.offset)) + ": " + unit.text(p.mgdl) + " " + unit.rawValue)
            m.raw("</circle>")
        }
        if let end = xy.last {
            // Right of the line's end (above it, else below), else ending at the axis above or below
            // the line: the first place clear of the bands' names and of the day's readings.
            let label = "+\(f.points.count * 5) min"
            let width = Double(label.count) * 6 + 4
            let names = layout.hasSides ? bandLabelBoxes : []
            let readings = view.points.map { (x: x(minute: $0.minute), y: y($0.mgdl)) }
            let atAxis = layout.plotRight - 2 - width
            let near = (xy + readings).filter { $0.x >= atAxis - 3 }.map(\.y)
            let places: [(x: Double, y: Double, end: Bool)] =
                (end.x + 5 + width <= layout.plotRight ? [(end.x + 5, end.y - 7, false), (end.x + 5, end.y + 16, false)] : [])
                + [(atAxis, max(layout.plotTop + 12, (near.min() ?? end.y) - 8), true),
                   (atAxis, min(layout.plotBottom - 4, (near.max() ?? end.y) + 16), true)]
            func clear(_ p: (x: Double, y: Double, end: Bool)) -> Bool {
                !names.contains { $0.overlaps(x: p.x, y: p.y - 10, w: width, h: 13) }
                    && !readings.contains { $0.x > p.x - 2 && $0.x < p.x + width + 2 && $0.y > p.y - 12 && $0.y < p.y + 4 }
            }
            let p = places.first(where: clear) ?? places[0]
            m.textElement(x: p.end ? layout.plotRight - 2 : p.x, y: p.y, label,
                          attributes: "class=\"t-small t-halo forecast-label\"" + (p.end ? " text-anchor=\"end\"" : "") + " style=\"fill:#A3142A\"")
        }
        m.raw("</g>")
    }

    /// The compact layout names its bands in a key under the axis: a full day's trace leaves no
    /// place inside a phone-wide plot where a name would not be crossed.
    func bandKey(_ m: inout Markup, y: Double) {
        m.raw("<g class=\"band-key\">")
        for item in bandKeyItems {
            let band = view.bands.bands[item.band], yy = y + 15 * Double(item.row)
            m.rect(item.x, yy - 9, 10, 10, attributes: "fill=\"\(band.fill)\" stroke=\"\(band.ink)\" stroke-width=\".8\"")
            m.textElement(x: item.x + 14, y: yy, item.text, attributes: "class=\"t-band\" fill=\"\(band.ink)\" style=\"fill:\(band.ink)\"")
        }
        m.raw("</g>")
    }

    /// The key's items, highest band first, in rows as wide as the chart (five bands take three).
    var bandKeyItems: [(band: Int, text: String, x: Double, row: Int)] {
        var x = 12.0, row = 0
        var out: [(band: Int, text: String, x: Double, row: Int)] = []
        for (i, _) in view.bands.bands.enumerated().reversed() {
            let text = view.bands.bands[i].title + " " + view.bands.rangeText(i, unit: unit)
            let w = 14 + Double(text.count) * 6.6
            if x > 12, x + w > layout.width - 8 { (x, row) = (12, row + 1) }
            out.append((i, text, x, row))
            x += w + 12
        }
        return out
    }

    func bandLabelY(top: Double, bottom: Double) -> Double { bottom - top >= 30 ? top + 15 : (top + bottom) / 2 + 4 }

    /// Where the bands' names are drawn (10.5 px bold): at the top of the band by the plot's right
    /// edge, else its left, middle or quarters, then the same at the band's foot and middle — the first
    /// place the day's trace does not cross (the halo keeps a name readable where all are crossed).
    var bandLabelBoxes: [TextBox] {
        let trace = view.points.map { (x: x(minute: $0.minute), y: y($0.mgdl)) }
        return view.bands.bands.enumerated().compactMap { i, band in
            let top = band.upper.map { y($0) } ?? layout.plotTop, bottom = band.lower.map { y($0) } ?? layout.plotBottom
            guard bottom - top > 0.5 else { return nil }
            let text = band.title + " " + view.bands.rangeText(i, unit: unit)
            let w = Double(text.count) * 6.6
            let (l, r) = (layout.plotLeft, layout.plotRight)
            // Its top, then its foot and middle when the band is tall enough; at each height right, left, middle.
            let heights = [bandLabelY(top: top, bottom: bottom)] + (bottom - top >= 44 ? [bottom - 5, (top + bottom) / 2 + 4] : [])
            let places = heights.flatMap { ty in
                [TextBox(x: r - 8 - w, y: ty - 10, w: w, h: 13, band: i, text: text, anchorX: r - 8, anchor: "end"),
                 TextBox(x: l + 8, y: ty - 10, w: w, h: 13, band: i, text: text, anchorX: l + 8, anchor: "start")]
                    + [0.5, 0.25, 0.75].map { f in
                        let cx = l + (r - l) * f
                        return TextBox(x: cx - w / 2, y: ty - 10, w: w, h: 13, band: i, text: text, anchorX: cx, anchor: "middle")
                    }
            }
            return places.first { box in !trace.contains { box.overlaps(x: $0.x - 2.5, y: $0.y - 2.5, w: 5, h: 5) } } ?? places[0]
        }
    }

    struct TextBox {
        var x, y, w, h: Double
        var band = 0, text = "", anchorX = 0.0, anchor = "end"
        func overlaps(x x2: Double, y y2: Double, w w2: Double, h h2: Double) -> Bool {
            x < x2 + w2 && x2 < x + w && y < y2 + h2 && y2 < y + h
        }
    }

    // MARK: Alarms and device events

    /// The day's alarms (▲) and device events (■: suspend, resume, rewind, site change…) on the time
    /// axis, close ones gathered (`CloseMarks`) — each with its tooltip, reachable by tap and keyboard.
    func axisEvents(_ m: inout Markup) {
        let events: [DayView.Note] = view.notes.filter { $0.kind == .alert || $0.kind == .device }
        guard !events.isEmpty else { return }
        let midnight = view.midnight
        let xs = events.map { x(minute: min(max(Double(LocalDays.local($0.utc, $0.offset) - midnight) / 60, 0), 1440)) }
        let b = layout.plotBottom
        m.raw("<g class=\"axis-events\">")
        for run in CloseMarks.runs(xs, gap: 10) {
            let group = events[run], cx = xs[run.lowerBound]
            let alarms = group.filter { $0.kind == .alert }.count
            let kind = alarms == group.count ? "alarm" : alarms == 0 ? "device" : "alarm device"
            let first = group[run.lowerBound].clock, last = group[run.upperBound - 1].clock
            m.raw("<g class=\"axis-event " + kind + "\" data-count=\"\(group.count)\" data-time=\"" + first + "\" tabindex=\"0\">")
            let each: [String] = group.map { $0.clock + " " + DayRecordList.describe($0) }
            let span = "\(group.count) events " + first + "–" + last + ": "
            m.title(group.count == 1 ? each[0] : span + each.joined(separator: "; "))
            if alarms > 0 {
                let corners: [(Double, Double)] = [(cx, b - 8), (cx + 5.5, b + 2), (cx - 5.5, b + 2)]
                let points = corners.map { Fmt.coord($0.0) + "," + Fmt.coord($0.1) }.joined(separator: " ")
                m.raw("<polygon class=\"mark\" points=\"" + points + "\" fill=\"" + Palette.vermillion + "\" stroke=\"#fff\" stroke-width=\"1\"/>")
            } else {
                m.rect(cx - 4, b - 4, 8, 8, attributes: "class=\"mark\" fill=\"\(Palette.muted)\" stroke=\"#fff\" stroke-width=\"1\"")
            }
            if group.count > 1 {
                m.textElement(x: cx, y: b - 10, "\(group.count)", attributes: "class=\"t-small t-halo\" text-anchor=\"middle\"")
            }
            m.raw("</g>")
        }
        m.raw("</g>")
    }

    // MARK: Event lanes

    func lanes(_ m: inout Markup) {
        let names = ["Meals", "Exercise", "Insulin"]
        for (i, name) in names.enumerated() {
            let top = layout.laneTop + Double(i) * layout.laneHeight
            m.rect(layout.plotLeft, top + 1, layout.plotRight - layout.plotLeft, layout.laneHeight - 2,
                   attributes: "fill=\"\(i % 2 == 0 ? "#F3F4F6" : "#F9FAFB")\"")
            m.textElement(x: layout.plotLeft - 7, y: top + 12.5, name, attributes: "class=\"t-small\" text-anchor=\"end\"")
        }
        basalSteps(&m)
        m.raw("<g class=\"events\">")
        // Where each lane's last label ends: a label that would overprint it is left to the tooltip.
        var labelEnds = [Double](repeating: -.infinity, count: 3)
        func laneOf(_ k: DayView.Marker.Kind) -> Int { k == .meal ? 0 : k == .exercise ? 1 : 2 }
        let items = LaneItem.gatheringClose(LaneItem.items(view.markers).filter { !$0.markers[0].isBasal || view.showBasal || inPage },
                                            x: { x(minute: min(max($0, 0), 1440)) }, lane: { laneOf($0.markers[0].kind) })
        // The next marker's x in the same lane: a label stops short of it (or is left to the tooltip).
        var nextX = [Double](repeating: .infinity, count: items.count)
        var seen = [Double](repeating: .infinity, count: 3)
        for i in items.indices.reversed() {
            let l = laneOf(items[i].markers[0].kind)
            nextX[i] = seen[l]
            seen[l] = x(minute: min(max(items[i].minute, 0), 1440))
        }
        for (index, item) in items.enumerated() {
            let marker = item.markers[0]
            let lane = Double(laneOf(marker.kind))
            let cy = layout.laneTop + lane * layout.laneHeight + layout.laneHeight / 2
            let cx = x(minute: min(max(item.minute, 0), 1440))
            let kind = marker.kind == .insulin ? (marker.isBasal ? "basal" : "bolus") : marker.kind.rawValue
            let attrs = "class=\"event \(kind)\(item.isGroup ? " hourly" : "")\" data-kind=\"\(marker.kind.rawValue)\" data-time=\"\(marker.clock)\""
                + (item.isGroup ? " data-count=\"\(item.markers.count)\"" : "") + " tabindex=\"0\""
            m.raw("<g " + attrs + ">")
            m.title(item.detail)
            let colour = MarkerShape.colour(kind)
            // One guide line per marker or hourly group; an hour's group draws none (its hour is in the text).
            if !item.isGroup { m.line(cx, cy + 7, cx, layout.plotBottom, attributes: "class=\"guide\" stroke=\"\(colour)\"") }
            var labelX = cx + 9
            if marker.kind == .exercise {
                let x2 = max(cx + 6, x(minute: min(marker.minute + marker.durationMinutes, 1440)))
                m.rect(cx, cy - 5, x2 - cx, 10, attributes: "class=\"mark\" rx=\"3\" fill=\"\(colour)\"")
                labelX = x2 + 4
            } else {
                MarkerShape.draw(&m, kind: kind, x: cx, y: cy, size: marker.kind == .meal ? Self.mealSize(marker.carbs) : 6)
            }
            let laneIndex = Int(lane)
            let label = item.shortLabel
            let labelEnd = labelX + Double(label.count) * 6.2
            // A label stops short of the next marker and of the plot's right edge (else: the tooltip).
            if !label.isEmpty && cx - 7 > labelEnds[laneIndex] && labelEnd < min(nextX[index] - 7, layout.plotRight + 4) {
                m.textElement(x: labelX, y: cy + 3.5, label, attributes: "class=\"t-small\"")
                labelEnds[laneIndex] = labelEnd
            } else {
                labelEnds[laneIndex] = max(labelEnds[laneIndex], cx + 7)
            }
            m.raw("</g>")
        }
        m.raw("</g>")
    }

    /// The delivered basal as a step area along the insulin lane's floor, its height the rate over the
    /// day's highest (scheduled steps light, temporary rates darker over them, a suspend a hatched
    /// floor); each step tells its rate and span on hover or tap. The basal switch hides it.
    func basalSteps(_ m: inout Markup) {
        guard !view.basal.isEmpty, view.showBasal || inPage else { return }
        let top = layout.laneTop + 2 * layout.laneHeight + 2, bottom = top + layout.laneHeight - 4
        let highest = max(view.basal.map(\.rate).max() ?? 0, 0.1)
        let colour = MarkerShape.colour("basal")
        m.raw("<g class=\"basal-rate\" data-highest=\"\(Fmt.amount(highest, 2))\">")
        for s in view.basal {
            let x1 = x(minute: s.startMinute), x2 = x(minute: s.endMinute)
            let h = s.rate == 0 ? 2 : max(1.5, (bottom - top) * s.rate / highest)
            let fill = s.rate == 0 ? "#9CA3AF" : colour
            let opacity = s.rate == 0 ? "0.9" : s.temporary ? "0.55" : "0.22"
            m.raw(s.temporary ? "<g class=\"basal-step temp\" data-rate=\"" as StaticString : "<g class=\"basal-step\" data-rate=\"")
            m.raw(Fmt.amount(s.rate, 3))
            m.raw("\" tabindex=\"0\">" as StaticString)
            m.raw("<title>" as StaticString)
            s.writeDetail(&m)
            m.raw("</title>" as StaticString)
            m.rect(x1, bottom - h, max(x2 - x1, 0.6), h, attributes: "fill=\"" + fill + "\" fill-opacity=\"" + opacity + "\"")
            m.raw("</g>" as StaticString)
        }
        m.raw("</g>")
    }

    /// The seeds plot meals higher for more carbs; in a lane, bigger.
    static func mealSize(_ carbs: Double?) -> Double { 4.5 + min(max(carbs ?? 0, 0), 100) / 100 * 3 }

    // MARK: Side views

    /// Three day columns on the bands, leaning away from the main graph.
    func sideView(_ m: inout Markup, days: [DayView.SideDay], left: Double, outerOnLeft: Bool, caption: String) {
        let w = layout.sideWidth
        let mid = (layout.plotTop + layout.plotBottom) / 2
        func scale(_ x: Double) -> Double {
            let f = (x - left) / w
            return outerOnLeft ? Self.perspective + (1 - Self.perspective) * f : 1 - (1 - Self.perspective) * f
        }
        func py(_ yy: Double, _ x: Double) -> Double { mid + (yy - mid) * scale(x) }
        let x0 = left, x1 = left + w
        m.raw("<g class=\"side-view \(outerOnLeft ? "previous" : "next")\">")
        for band in view.bands.bands {
            let top = band.upper.map { y($0) } ?? layout.plotTop, bottom = band.lower.map { y($0) } ?? layout.plotBottom
            guard bottom - top > 0.5 else { continue }
            let pts = [(x0, py(top, x0)), (x1, py(top, x1)), (x1, py(bottom, x1)), (x0, py(bottom, x0))]
            m.raw("<polygon fill=\"\(band.fill)\" stroke=\"#D1D5DB\" stroke-width=\".6\" points=\"" +
                  pts.map { Fmt.coord($0.0) + "," + Fmt.coord($0.1) }.joined(separator: " ") + "\"/>")
        }
        let col = w / 3
        for i in 1..<3 {
            let xx = x0 + col * Double(i)
            m.line(xx, py(layout.plotTop, xx), xx, py(layout.plotBottom, xx), attributes: "class=\"side-sep\"")
        }
        for (i, d) in days.enumerated() {
            let cx = x0 + col * (Double(i) + 0.5)
            let s = scale(cx)
            m.raw("<g class=\"side-day\" data-date=\"\(CivilDate.isoDate(fromDays: d.day))\">")
            if let lo = d.min, let mean = d.mean, let hi = d.max {
                m.raw("<g class=\"range-bar\">")
                m.title(Fmt.shortDate(d.day) + ": lowest \(unit.text(lo)), mean \(unit.text(mean)), highest \(unit.text(hi)) \(unit.rawValue) (\(d.count) readings)")
                let half = 9 * s
                m.line(cx, py(y(hi), cx), cx, py(y(lo), cx), attributes: "class=\"bar-line\"")
                m.line(cx - half, py(y(hi), cx), cx + half, py(y(hi), cx), attributes: "class=\"bar-line\"")
                m.line(cx - half, py(y(lo), cx), cx + half, py(y(lo), cx), attributes: "class=\"bar-line\"")
                m.raw("<circle class=\"bar-mean\" cx=\"\(Fmt.coord(cx))\" cy=\"\(Fmt.coord(py(y(mean), cx)))\" r=\"\(Fmt.coord(4.5 * s))\"/>")
                m.raw("</g>")
            } else {
                m.textElement(x: cx, y: y(CanonicalUnits.mgdl(fromMmol: 14)), "no", attributes: "text-anchor=\"middle\" class=\"t-small\"")
                m.textElement(x: cx, y: y(CanonicalUnits.mgdl(fromMmol: 14)) + 11, "data", attributes: "text-anchor=\"middle\" class=\"t-small\"")
                m.title(Fmt.shortDate(d.day) + ": no readings")
            }
            let (_, _, dd) = CivilDate.date(fromDays: d.day)
            m.textElement(x: cx, y: layout.plotBottom + 17, Fmt.weekday(d.day) + " " + String(dd), attributes: "text-anchor=\"middle\" class=\"t-small\"")
            m.raw("</g>")
        }
        m.textElement(x: left + w / 2, y: layout.plotTop - 8, caption, attributes: "text-anchor=\"middle\" class=\"t-small\"")
        m.raw("</g>")
    }
}

/// The marker shapes: a circle for meals, a bar for exercise, a drop-shaped triangle for insulin
/// (filled for bolus, hollow for basal) — shape as well as colour tells them apart.
enum MarkerShape {
    static func colour(_ kind: String) -> String {
        switch kind {
        case "meal": return Palette.meal
        case "exercise": return Palette.exercise
        default: return Palette.insulin
        }
    }

    static func draw(_ m: inout Markup, kind: String, x: Double, y: Double, size: Double) {
        let c = colour(kind)
        switch kind {
        case "meal":
            m.raw("<circle class=\"mark\" cx=\"" as StaticString)
            m.coord(x)
            m.raw("\" cy=\"" as StaticString)
            m.coord(y)
            m.raw("\" r=\"" as StaticString)
            m.coord(size)
            m.raw("\" fill=\"" + c + "\" stroke=\"#fff\" stroke-width=\"1\"/>")
        case "exercise":
            m.rect(x - size, y - size * 0.7, size * 2, size * 1.4, attributes: "class=\"mark\" rx=\"2\" fill=\"\(c)\"")
        default:
            m.raw("<polygon class=\"mark\" points=\"" as StaticString)
            for (i, p) in [(x - size, y - size * 0.8), (x + size, y - size * 0.8), (x, y + size)].enumerated() {
                if i > 0 { m.raw(" " as StaticString) }
                m.coord(p.0)
                m.raw("," as StaticString)
                m.coord(p.1)
            }
            m.raw(kind == "basal" ? "\" fill=\"#fff\" stroke=\"" + c + "\" stroke-width=\"1.8\"/>" : "\" fill=\"" + c + "\"/>")
        }
    }
}

extension String {
    /// "1961-04-20" → "19610420" (for element ids).
    func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
