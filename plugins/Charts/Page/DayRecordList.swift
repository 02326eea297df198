import HealthPipeCore

/// Everything the day's records hold, as a list in time order under the chart: each dose, meal and
/// exercise (imported or logged), each finger-stick check with its value, and each note, alarm and
/// device event (suspend, resume, rewind…) — what the chart cannot draw, and what a screen reader
/// reads instead of the chart. Closed when long (an automated-insulin day has hundreds of doses).
struct DayRecordList {
    let view: DayView
    let unit: DisplayUnit

    /// Days with more items than this open the list only when asked.
    static let openUpTo = 12

    private struct Item {
        var utc: Int64
        var offset: Int32
        var order: Int
        var write: (inout Markup) -> Void
    }

    func render(_ m: inout Markup) {
        let v = view
        var items: [Item] = []
        for marker in v.visibleMarkers {
            items.append(Item(utc: marker.utc, offset: marker.offset, order: 1) { m in
                m.escaped(marker.title)
                let f = marker.facts
                if !f.isEmpty { m.escaped(": " + f.joined(separator: ", ")) }
                Self.source(&m, marker.source)
            })
        }
        for check in v.checks {
            items.append(Item(utc: check.utc, offset: check.offset, order: 0) { m in
                m.escaped("BG check " + unit.text(check.mgdl) + " " + unit.rawValue)
                Self.source(&m, check.source)
            })
        }
        for note in v.notes {
            items.append(Item(utc: note.utc, offset: note.offset, order: 2) { m in
                m.escaped(Self.describe(note))
                Self.source(&m, note.source)
            })
        }
        guard !items.isEmpty else { return }
        items.sort { ($0.utc, $0.order) < ($1.utc, $1.order) }
        var counts: [String] = []
        func count(_ n: Int, _ one: String, _ many: String) { if n > 0 { counts.append("\(n) \(n == 1 ? one : many)") } }
        let doses = v.visibleMarkers.filter { $0.kind == .insulin }.count
        count(doses, "dose", "doses")
        count(v.visibleMarkers.filter { $0.kind == .meal }.count, "meal", "meals")
        count(v.visibleMarkers.filter { $0.kind == .exercise }.count, "exercise", "exercises")
        count(v.checks.count, "BG check", "BG checks")
        count(v.notes.filter { $0.kind == .note }.count, "note", "notes")
        count(v.notes.filter { $0.kind == .alert }.count, "alarm", "alarms")
        count(v.notes.filter { $0.kind == .device }.count, "device event", "device events")
        m.raw("<details class=\"day-record\"\(items.count <= Self.openUpTo ? " open" : "")><summary>Everything recorded this day: ")
        m.escaped(counts.joined(separator: ", "))
        m.raw("</summary><ol>")
        for item in items {
            m.raw("<li><b>" + Fmt.clock(localSeconds: LocalDays.local(item.utc, item.offset)) + "</b> ")
            item.write(&m)
            m.raw("</li>")
        }
        m.raw("</ol></details>")
    }

    /// "Alarm: Low glucose — below 55", "Suspended", "Note: pizza at the party".
    static func describe(_ n: DayView.Note) -> String {
        let name = n.name.isEmpty ? "" : n.name.prefix(1).uppercased() + n.name.dropFirst()
        switch n.kind {
        case .alert: return "Alarm" + (name.isEmpty ? "" : ": " + name) + (n.text.isEmpty ? "" : " — " + n.text)
        case .note: return "Note" + (name.isEmpty ? "" : " (" + name + ")") + (n.text.isEmpty ? "" : ": " + n.text)
        default: return (name.isEmpty ? "Device event" : name) + (n.text.isEmpty ? "" : " — " + n.text)
        }
    }

    static func source(_ m: inout Markup, _ source: String) {
        guard !source.isEmpty else { return }
        m.raw(" <small>· ")
        m.escaped(source == ManualEntry.source.text ? "logged" : source)
        m.raw("</small>")
    }
}

extension DayView.Note {
    /// "Alarm: Low glucose — below 55", "Suspended" (the day's list says it so).
    public var sentence: String { DayRecordList.describe(self) }
}
