import HealthPipeCore

/// Counts a file's data rows by type while it is read: each row ends stored, quarantined or
/// skipped, under its type (a slot per type the adapter knows, one for rows without a type, and
/// the types it does not know by their text). Counting is arithmetic on arrays sized once per
/// file; only an unknown type's first row allocates. Rows counted by their type's text (`byName`:
/// unknown types, a source's few untimed metadata rows) allocate that text per row.
struct RowTally {
    /// What became of one row.
    enum Outcome { case stored, quarantined, skipped }

    /// Slots `0..<known`: the adapter's types; slot `known`: rows without a type.
    let untyped: Int
    /// The file's spelling of each known type, set from its first row (nil: not seen).
    private var names: [String?]
    private var stored: [Int64]
    private var quarantined: [Int64]
    private var skipped: [Int64]
    /// Rows counted by their type's text, with whether the source knows the type.
    private var named: [String: RowTypeCount] = [:]

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

    /// Names a slot whose type a source knows by a fixed word (a t:connect section).
    mutating func name(_ slot: Int, _ text: String) { names[slot] = text }

    mutating func stored(_ slot: Int) { stored[slot] += 1 }
    mutating func quarantined(_ slot: Int) { quarantined[slot] += 1 }
    mutating func skipped(_ slot: Int) { skipped[slot] += 1 }
    mutating func unknownType(_ cell: UnsafeRawBufferPointer) { byName(cell, .quarantined, known: false) }

    /// Counts a row under its type's text (not a slot): an unknown type, or a rare known one.
    mutating func byName(_ cell: UnsafeRawBufferPointer, _ outcome: Outcome, known: Bool) {
        let type = cell.text
        var t = named[type] ?? RowTypeCount(type: type, known: known)
        switch outcome {
        case .stored: t.stored += 1
        case .quarantined: t.quarantined += 1
        case .skipped: t.skipped += 1
        }
        named[type] = t
    }

    var totalStored: Int64 { stored.reduce(0, +) + named.values.reduce(0) { $0 + $1.stored } }
    var totalSkipped: Int64 { skipped.reduce(0, +) + named.values.reduce(0) { $0 + $1.skipped } }

    /// The per-type counts of every slot that saw a row, then the types counted by name (a known
    /// one joins the slot of the same spelling).
    var counts: [RowTypeCount] {
        var out: [RowTypeCount] = []
        for i in 0..<stored.count where stored[i] + quarantined[i] + skipped[i] > 0 {
            out.append(RowTypeCount(type: names[i] ?? "", stored: stored[i], quarantined: quarantined[i], skipped: skipped[i]))
        }
        for (type, t) in named.sorted(by: { $0.key < $1.key }) {
            if t.known, let i = out.firstIndex(where: { $0.type == type }) {
                out[i].stored += t.stored; out[i].quarantined += t.quarantined; out[i].skipped += t.skipped
            } else {
                out.append(t)
            }
        }
        return out
    }

    /// Adds another tally with the same slots (a workbook's sheets, each read by its own mapper).
    mutating func add(_ other: RowTally) {
        precondition(other.stored.count == stored.count, "tallies of different sources")
        for i in stored.indices {
            if names[i] == nil { names[i] = other.names[i] }
            stored[i] += other.stored[i]; quarantined[i] += other.quarantined[i]; skipped[i] += other.skipped[i]
        }
        for (type, t) in other.named {
            var mine = named[type] ?? RowTypeCount(type: type, known: t.known)
            mine.stored += t.stored; mine.quarantined += t.quarantined; mine.skipped += t.skipped
            named[type] = mine
        }
    }
}
