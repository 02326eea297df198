import HealthPipeAnalytics
import HealthPipeCore

/// How `metrics` prints: JSON lines (hand-written, no JSONEncoder) or an aligned text table.
enum MetricsOutput {
    static func periodLabel(_ s: MetricSet) -> String {
        s.firstDay == s.lastDay ? CivilDate.isoDate(fromDays: s.firstDay)
            : CivilDate.isoDate(fromDays: s.firstDay) + "/" + CivilDate.isoDate(fromDays: s.lastDay)
    }

    static func json(_ sets: [MetricSet]) -> [UInt8] {
        var out: [UInt8] = []
        var w = JSONWriter(capacity: 4096)
        for s in sets {
            w.reset()
            w.beginObject()
            w.key("subject"); w.string(s.subject.text)
            w.key("metric"); w.string(s.metric.text)
            w.key("period"); w.string(periodLabel(s))
            w.key("from"); w.string(CivilDate.isoDate(fromDays: s.firstDay))
            w.key("to"); w.string(CivilDate.isoDate(fromDays: s.lastDay))
            w.key("unit"); w.string(s.unit.text)
            for v in s.values + GlucoseMetrics.agpNamedValues(s.agp) {
                w.key(v.name)
                w.double(v.value)
            }
            if let gri = s["gri"] { w.key("gri_zone"); w.string(GRIZone.letter(gri)) }
            w.endObject()
            w.newline()
            out += w.bytes
        }
        return out
    }

    static func table(_ sets: [MetricSet]) -> String {
        var text = ""
        for s in sets {
            text += "\(s.subject.text)  \(s.metric.text)  \(periodLabel(s))  (\(s.unit.text))\n"
            // Names are never cut (active_percent_period is 21 characters).
            let nameWidth = max(20, (s.values.map(\.name.count).max() ?? 0) + 1)
            func cell(_ name: String, _ value: String) -> String {
                name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + String(repeating: " ", count: max(1, 12 - value.count)) + value
            }
            var cells = s.values.map { cell($0.name, format($0.value)) }
            // The GRI's zone (A–E) next to the GRI itself.
            if let gri = s["gri"], let at = s.values.firstIndex(where: { $0.name == "gri" }) { cells.insert(cell("gri_zone", GRIZone.letter(gri)), at: at + 1) }
            cells += GlucoseMetrics.agpNamedValues(s.agp).map { cell($0.name, format($0.value)) }
            var i = 0
            while i < cells.count {
                text += "  " + cells[i..<min(i + 3, cells.count)].joined(separator: "    ") + "\n"
                i += 3
            }
            text += "\n"
        }
        return text
    }

    /// Up to 4 decimals, trailing zeros dropped: readable without hiding small percentages.
    static func format(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        var s = String(Int64((abs(v) * 10_000).rounded()))
        while s.count < 5 { s = "0" + s }
        var whole = String(s.dropLast(4)), frac = String(s.suffix(4))
        while frac.hasSuffix("0") { frac.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (v < 0 && (whole != "0" || !frac.isEmpty) ? "-" : "") + whole + (frac.isEmpty ? "" : "." + frac)
    }
}
