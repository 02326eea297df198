import HealthPipeCore

/// Counts a file's data rows by type while it is read: each row ends stored, quarantined or
/// skipped, under its type (a slot per type the adapter knows, one for rows without a type, and
/// the types it does not know by their text). Counting is arithmetic on arrays sized once per
/// file; only an unknown type's first row allocates.
struct RowTally {
    /// Slots `0..<known`: the adapter's types; slot `known`: rows without a type.
    let untyped: Int
    /// The file's spelling of each known type, set from its first row (nil: not seen).
    private var names: [String?]
    private var stored: [Int64]
    private var quarantined: [Int64]
    private var skipped: [Int64]
    private var unknown: [String: Int64] = [:]

    init(knownTypes: Int) {
        untyped = knownTypes
        names = Array(repeating: nil, count: knownTypes + 1)
        stored = Array(repeating: 0, count: knownTypes + 1)
        quarantined = stored
        skipped = stored
    }

    mutating func name(_ slot: Int, _ cell: UnsafeRawBufferPointer) {
        if names[slot] == nil { names[slot] = cell.text }
    }

    mutating func stored(_ slot: Int) { stored[slot] += 1 }
    mutating func quarantined(_ slot: Int) { quarantined[slot] += 1 }
    mutating func skipped(_ slot: Int) { skipped[slot] += 1 }
    mutating func unknownType(_ cell: UnsafeRawBufferPointer) { unknown[cell.text, default: 0] += 1 }

    var totalStored: Int64 { stored.reduce(0, +) }
    var totalSkipped: Int64 { skipped.reduce(0, +) }

    /// The per-type counts of every slot that saw a row, then the unknown types.
    var counts: [RowTypeCount] {
        var out: [RowTypeCount] = []
        for i in 0..<stored.count where stored[i] + quarantined[i] + skipped[i] > 0 {
            out.append(RowTypeCount(type: names[i] ?? "", stored: stored[i], quarantined: quarantined[i], skipped: skipped[i]))
        }
        for (type, n) in unknown.sorted(by: { $0.key < $1.key }) {
            out.append(RowTypeCount(type: type, quarantined: n, known: false))
        }
        return out
    }
}
