import HealthPipeCore

/// Reads a row's timestamp from one cell, or from a date cell and a time cell joined with a
/// space into a reused buffer (so the split form costs no allocation per row either). With
/// several patterns the one that matched last is tried first (a file keeps one layout); with
/// month names (`%b`) the name is rewritten to its number first.
struct MappedTimeReader {
    let patterns: MappedAdapter.Patterns
    let split: Bool
    private var joined: [UInt8] = []
    private var rewritten: [UInt8] = []
    private var last = 0
    /// The previous row matched after its month name was rewritten.
    private var lastRewrote = false

    init(_ source: MappedAdapter.TimeSource) {
        switch source {
        case .single(_, let p): patterns = p; split = false
        case .split(_, _, let p): patterns = p; split = true
        }
        joined.reserveCapacity(64)
        rewritten.reserveCapacity(64)
    }

    /// `time` is ignored for single-cell timestamps; an empty time cell means midnight only when
    /// the adapter has no time column (then the pattern has no time fields).
    mutating func parse(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer?) -> ParsedTimestamp? {
        guard split, let time else { return parse(date) }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: date)
        joined.append(0x20)
        joined.append(contentsOf: time)
        // Moved out while read: `parse` mutates self (the last pattern that matched).
        var buffer: [UInt8] = []
        swap(&buffer, &joined)
        defer { swap(&buffer, &joined) }
        return buffer.withUnsafeBytes { parse($0) }
    }

    private mutating func parse(_ text: UnsafeRawBufferPointer) -> ParsedTimestamp? {
        guard patterns.monthNames else { return match(text) }
        // A file writes its dates one way: try first what worked for the previous row.
        if !lastRewrote, let t = match(text) { return t }
        var buffer: [UInt8] = []
        swap(&buffer, &rewritten)
        defer { swap(&buffer, &rewritten) }
        if MonthNames.rewrite(text, into: &buffer), let t = buffer.withUnsafeBytes({ match($0) }) {
            lastRewrote = true
            return t
        }
        guard lastRewrote else { return nil }
        lastRewrote = false
        return match(text)
    }

    private mutating func match(_ text: UnsafeRawBufferPointer) -> ParsedTimestamp? {
        let list = patterns.list
        if let t = list[last].parse(text) { return t }
        for k in list.indices where k != last {
            if let t = list[k].parse(text) { last = k; return t }
        }
        return nil
    }

    /// The cells as text, for a rejection reason.
    static func describe(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer?) -> String {
        time.map { "\(date.text) \($0.text)" } ?? date.text
    }
}
