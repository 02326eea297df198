import HealthPipeCore

/// The primary-key order of one series' rows: (start, end), as SQLite orders them.
enum GridKeyOrder {
    @inline(__always)
    static func less(_ a: HealthPipeCore.Measurement, _ b: HealthPipeCore.Measurement) -> Bool {
        (a.start, a.end) < (b.start, b.end)
    }

    /// -1, 0 or 1 as the stored row's key sorts before, equal to or after the point's.
    @inline(__always)
    static func compare(_ a: StoredGridRow, _ b: HealthPipeCore.Measurement) -> Int {
        if (a.start, a.end) < (b.start, b.end) { return -1 }
        return (a.start, a.end) == (b.start, b.end) ? 0 : 1
    }

    /// Sorts points by key, keeping arrival order among equal keys, and folds each run of equal keys
    /// into the row a sequence of upserts leaves: the last point's.
    static func sortAndMerge(_ points: inout [HealthPipeCore.Measurement]) {
        var sorted = true
        var distinct = true
        for k in points.indices.dropFirst() {
            if less(points[k], points[k - 1]) { sorted = false; break }
            if !less(points[k - 1], points[k]) { distinct = false }
        }
        if sorted && distinct { return }
        if !sorted {
            // Stable: ties keep their index order.
            let order = points.indices.sorted { less(points[$0], points[$1]) || (!less(points[$1], points[$0]) && $0 < $1) }
            points = order.map { points[$0] }
        }
        var merged: [HealthPipeCore.Measurement] = []
        merged.reserveCapacity(points.count)
        for p in points {
            if let last = merged.last, !less(last, p) {
                merged[merged.count - 1] = p
            } else {
                merged.append(p)
            }
        }
        points = merged
    }
}
