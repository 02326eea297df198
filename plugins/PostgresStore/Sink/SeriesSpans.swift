/// Per series, the earliest to latest start of the rows a batch holds: the key ranges whose stored
/// rows are read back in one range scan of the primary key each (`StoredRowFilter`).
struct SeriesSpans {
    private(set) var spans: [Int64: ClosedRange<Int64>] = [:]
    private var last: Int64?
    private var lastRange: ClosedRange<Int64> = 0...0

    var isEmpty: Bool { spans.isEmpty && last == nil }

    /// Notes a row's series and start (rows come in runs of one series: the last is kept aside).
    @inline(__always)
    mutating func note(series: Int64, start: Int64) {
        if series == last {
            if start < lastRange.lowerBound { lastRange = start...lastRange.upperBound }
            if start > lastRange.upperBound { lastRange = lastRange.lowerBound...start }
            return
        }
        settle()
        last = series
        lastRange = spans[series].map { min($0.lowerBound, start)...max($0.upperBound, start) } ?? start...start
    }

    private mutating func settle() {
        if let last { spans[last] = lastRange }
    }

    mutating func reset() {
        spans.removeAll(keepingCapacity: true)
        last = nil
    }

    /// `(VALUES (series, lo, hi), …) AS name(series, lo, hi)`, by series; nil when empty.
    func values(as name: String) -> String? {
        var all = self
        all.settle()
        guard !all.spans.isEmpty else { return nil }
        let rows = all.spans.sorted { $0.key < $1.key }.map { "(\($0.key)::bigint, \($0.value.lowerBound)::bigint, \($0.value.upperBound)::bigint)" }
        return "(VALUES \(rows.joined(separator: ", "))) AS \(name)(series, lo, hi)"
    }
}
