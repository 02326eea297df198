/// Marks closer on a chart than a mark is wide sit on each other: a 3.8 U bolus at 12:08 hides under
/// a 2.2 U one at 12:11, and two alarms a minute apart look like one. The one rule for every row of
/// marks on the day chart (the event lanes, the alarms on the time axis): such marks are drawn as
/// one, whose tooltip lists each, so nothing is hidden and each is reachable by tap and keyboard.
/// Measured in the chart's units, so a phone's chart (a day over 292 units) gathers more than the
/// wide one (624 units).
enum CloseMarks {
    /// A mark's width: a lane marker is 12 units wide, an axis mark 10.
    static let gap = 12.0

    /// Runs of `xs` (ascending): each starts at a mark and takes every next one less than `gap` from
    /// that first one — where the run is drawn — so drawn marks are always `gap` apart.
    static func runs(_ xs: [Double], gap: Double = gap) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in xs.indices.dropFirst() where xs[i] - xs[start] >= gap {
            out.append(start..<i)
            start = i
        }
        if !xs.isEmpty { out.append(start..<xs.count) }
        return out
    }

    /// Runs of marks drawn at their value (a check's diamond): a run takes the next mark while it is
    /// less than `gap` from the run's first one across and up or down.
    static func runs(_ points: [(x: Double, y: Double)], gap: Double = gap) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in points.indices.dropFirst() where points[i].x - points[start].x >= gap || abs(points[i].y - points[start].y) >= gap {
            out.append(start..<i)
            start = i
        }
        if !points.isEmpty { out.append(start..<points.count) }
        return out
    }
}
