import HealthPipeCore

/// Reads a row's timestamp from one cell, or from a date cell and a time cell joined with a
/// space into a reused buffer (so the split form costs no allocation per row either).
struct MappedTimeReader {
    let pattern: TimestampPattern
    let split: Bool
    private var joined: [UInt8] = []

    init(_ source: MappedAdapter.TimeSource) {
        switch source {
        case .single(_, let p): pattern = p; split = false
        case .split(_, _, let p): pattern = p; split = true
        }
        joined.reserveCapacity(64)
    }

    /// `time` is ignored for single-cell timestamps; an empty time cell means midnight only when
    /// the adapter has no time column (then the pattern has no time fields).
    mutating func parse(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer?) -> ParsedTimestamp? {
        guard split, let time else { return pattern.parse(date) }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: date)
        joined.append(0x20)
        joined.append(contentsOf: time)
        return joined.withUnsafeBytes { pattern.parse($0) }
    }

    /// The cells as text, for a rejection reason.
    static func describe(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer?) -> String {
        time.map { "\(date.text) \($0.text)" } ?? date.text
    }
}
