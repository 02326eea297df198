/// What an event lane draws: one marker per event, except that an AID day's many small doses are
/// drawn per clock hour — the hour's micro-boluses (< 1 U: SMBs) as one bolus marker labelled with
/// their total, and the hour's basal entries (scheduled and temporary) as one basal marker — when
/// the hour has more than one — and markers that would sit on each other are drawn as one
/// (`CloseMarks`, `gatheringClose`). The tooltip lists every dose, so nothing is hidden, only gathered.
struct LaneItem {
    var markers: [DayView.Marker]
    /// Where the item sits: the marker's minute, or a fixed minute of the group's hour.
    var minute: Double
    /// Markers gathered because they were closer than a marker is wide (not an AID hour's doses).
    var close = false

    var isGroup: Bool { markers.count > 1 }

    static func items(_ markers: [DayView.Marker]) -> [LaneItem] {
        var out: [LaneItem] = []
        var groups: [String: Int] = [:]
        for m in markers {
            let gathered = m.isMicroBolus || m.isBasal
            guard gathered else { out.append(LaneItem(markers: [m], minute: m.minute)); continue }
            let key = (m.isBasal ? "basal" : "micro") + String(Int((m.minute / 60).rounded(.down)))
            if let i = groups[key] { out[i].markers.append(m) } else {
                groups[key] = out.count
                out.append(LaneItem(markers: [m], minute: m.minute))
            }
        }
        // A group sits at a fixed place in its hour, basal early and micro-boluses late, so an AID
        // hour's two groups (they come together every 5 minutes) never sit on each other.
        for i in out.indices where out[i].isGroup {
            let hour = (out[i].markers[0].minute / 60).rounded(.down) * 60
            out[i].minute = hour + (out[i].markers[0].isBasal ? 12 : 40)
        }
        return out.sorted { $0.minute < $1.minute }
    }

    /// `items` (in time order) with those of one lane — basal apart from the rest — closer than
    /// `CloseMarks.gap` at `x` gathered into one item at the first one's place.
    static func gatheringClose(_ items: [LaneItem], x: (Double) -> Double, lane: (LaneItem) -> Int) -> [LaneItem] {
        var rows: [Int: [LaneItem]] = [:]
        for item in items { rows[lane(item) * 2 + (item.markers[0].isBasal ? 1 : 0), default: []].append(item) }
        // Rows in their key's order and items ordered by minute, then row: the same day draws the same
        // bytes in every run (a dictionary's order changes from one process to the next).
        var out: [(row: Int, item: LaneItem)] = []
        for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
            for run in CloseMarks.runs(row.map { x($0.minute) }) {
                guard run.count > 1 else { out.append((key, row[run.lowerBound])); continue }
                let first = row[run.lowerBound]
                out.append((key, LaneItem(markers: row[run].flatMap(\.markers).sorted { $0.utc < $1.utc }, minute: first.minute, close: true)))
            }
        }
        return out.sorted { ($0.item.minute, $0.row) < ($1.item.minute, $1.row) }.map(\.item)
    }

    var total: Double { markers.compactMap(\.insulin).reduce(0, +) }

    /// "0.8 U in 6", or the single marker's label.
    var shortLabel: String {
        guard isGroup else { return markers[0].shortLabel }
        switch markers[0].kind {
        case .meal:
            let carbs = markers.compactMap(\.carbs)
            return carbs.isEmpty ? "" : Fmt.amount(carbs.reduce(0, +), 0) + " g"
        case .exercise: return markers[0].shortLabel
        case .insulin: return markers[0].isBasal ? "" : Fmt.amount(total, 1) + " U"
        }
    }

    /// "Micro-boluses 14:00–15:00: 6 doses, 1.2 U in total (14:05 0.1 U, …)".
    var detail: String {
        guard isGroup else { return markers[0].detail }
        if close {
            let what = markers[0].kind == .insulin ? "doses" : markers[0].kind == .meal ? "meals" : "exercises"
            return "\(markers.count) \(what) " + markers[0].clock + "–" + markers[markers.count - 1].clock + ": "
                + markers.map(\.detail).joined(separator: "; ")
        }
        let hour = Int((markers[0].minute / 60).rounded(.down))
        let span = Fmt.pad2(hour) + ":00–" + Fmt.pad2(hour + 1) + ":00"
        let each = markers.map { m in
            m.clock + (m.insulin.map { " " + Fmt.amount($0) + " U" } ?? "") + (m.insulinType == "temp_basal" ? " temp" : "")
                + (m.isBasal && m.durationMinutes > 0 ? " for " + Fmt.duration(minutes: m.durationMinutes) : "")
        }.joined(separator: ", ")
        if markers[0].isBasal {
            return "Basal insulin " + span + ": \(markers.count) entries (" + each + ")"
        }
        return "Micro-boluses " + span + ": \(markers.count) doses, " + Fmt.amount(total, 2) + " U in total (" + each + ")"
    }
}
