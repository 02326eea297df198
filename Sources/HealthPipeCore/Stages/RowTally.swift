import Foundation

/// Counts a file's data rows (or documents) by type while it is read: each ends stored, quarantined
/// or skipped, under its type — the one accounting rule of every source (docs/reliability.md,
/// "Every row accounted for"); `StageContext.finishRows` reports it. Slots `0..<known` are the
/// source's fixed types, slot `untyped` holds rows without a type, and every other type gets a slot
/// by its text on first sight (`slot(named:known:)`). Counting is arithmetic on arrays; only a
/// type's first row allocates (its name), later rows of it are found by a hash of their bytes.
public struct RowTally: Sendable {
    /// What became of one row.
    public enum Outcome: Sendable { case stored, quarantined, skipped }

    /// Types counted by their text beyond this many share one slot (a hostile file of a million
    /// distinct types costs one slot each otherwise).
    public static let maxNamedTypes = 1000
    static let otherTypes = "(other types)"

    /// The slot of rows without a type.
    public let untyped: Int
    /// The file's spelling of each type (nil: a fixed slot not seen yet).
    private var names: [String?]
    /// Whether the source knows each type (fixed slots and `untyped`: always).
    private var known: [Bool]
    private var stored: [Int64]
    private var quarantined: [Int64]
    private var skipped: [Int64]
    /// The bytes of each named slot's type (empty for fixed slots and `overflow`), and the slots by a hash of them:
    /// `byHash` holds the newest slot of a hash, `chain` the next older one (-1: none).
    private var keys: [[UInt8]]
    private var byHash: [UInt64: Int] = [:]
    private var chain: [Int]
    private var overflow: Int? = nil
    private var lastNamed = -1

    /// A source whose fixed slots are named by the file's spelling as rows arrive (`name(_:_:)`).
    public init(knownTypes: Int) {
        untyped = knownTypes
        names = Array(repeating: nil, count: knownTypes + 1)
        known = Array(repeating: true, count: knownTypes + 1)
        stored = Array(repeating: 0, count: knownTypes + 1)
        quarantined = stored
        skipped = stored
        keys = Array(repeating: [], count: knownTypes + 1)
        chain = Array(repeating: -1, count: knownTypes + 1)
    }

    /// A source whose fixed slots have fixed names (a t:connect section, CareLink's rows).
    public init(types: [String]) {
        self.init(knownTypes: types.count)
        for (slot, name) in types.enumerated() { names[slot] = name }
    }

    public mutating func name(_ slot: Int, _ cell: UnsafeRawBufferPointer) {
        if names[slot] == nil { names[slot] = String(decoding: cell, as: UTF8.self) }
    }

    public mutating func name(_ slot: Int, _ text: String) { names[slot] = text }

    @inline(__always)
    public mutating func count(_ slot: Int, _ outcome: Outcome) {
        switch outcome {
        case .stored: stored[slot] += 1
        case .quarantined: quarantined[slot] += 1
        case .skipped: skipped[slot] += 1
        }
    }

    /// The slot of a type counted by its text (an unknown type, a source's rare or open-ended types):
    /// found by its bytes, made on first sight with `known` (evaluated then only).
    public mutating func slot(named type: UnsafeRawBufferPointer, known isKnown: @autoclosure () -> Bool) -> Int {
        // Rows of one type come in runs (a file of sgv entries): the last slot found is tried first.
        if lastNamed >= 0, Self.same(keys[lastNamed], type) { return lastNamed }
        let h = Self.hash(type)
        var i = byHash[h] ?? -1
        while i >= 0 {
            if Self.same(keys[i], type) {
                lastNamed = i
                return i
            }
            i = chain[i]
        }
        if keys.count - untyped > Self.maxNamedTypes {
            if let o = overflow { return o }
            overflow = append(name: Self.otherTypes, key: [], known: false, hash: nil)
            return overflow!
        }
        return append(name: String(decoding: type, as: UTF8.self), key: Array(type), known: isKnown(), hash: h)
    }

    /// Counts one row under `slot` by what its mapping gave: stored or skipped as returned (nil: not a
    /// data row, not counted), quarantined when it threw a `RowRejection` — rethrown, for the file's
    /// run to quarantine. The one place a rejected row is counted.
    @inline(__always)
    public mutating func account(_ slot: Int, _ result: Result<Outcome?, any Error>) throws {
        switch result {
        case .success(let outcome?): count(slot, outcome)
        case .success(nil): break
        case .failure(let error):
            if error is any RowRejection { count(slot, .quarantined) }
            throw error
        }
    }

    public var totalStored: Int64 { stored.reduce(0, +) }
    public var totalSkipped: Int64 { skipped.reduce(0, +) }
    public var totalQuarantined: Int64 { quarantined.reduce(0, +) }

    /// The per-type counts of every fixed slot that saw a row, then the named types by their text (a
    /// known one joins the fixed slot of the same spelling).
    public var counts: [RowTypeCount] {
        var out: [RowTypeCount] = []
        for i in 0...untyped where stored[i] + quarantined[i] + skipped[i] > 0 {
            out.append(RowTypeCount(type: names[i] ?? "", stored: stored[i], quarantined: quarantined[i], skipped: skipped[i]))
        }
        let named = (untyped + 1..<names.count).sorted { names[$0]! < names[$1]! }
        for i in named where stored[i] + quarantined[i] + skipped[i] > 0 {
            let type = names[i]!
            if known[i], let j = out.firstIndex(where: { $0.type == type }) {
                out[j].stored += stored[i]; out[j].quarantined += quarantined[i]; out[j].skipped += skipped[i]
            } else {
                out.append(RowTypeCount(type: type, stored: stored[i], quarantined: quarantined[i], skipped: skipped[i], known: known[i]))
            }
        }
        return out
    }

    /// Adds another tally with the same fixed slots (a workbook's sheets, each read by its own mapper).
    public mutating func add(_ other: RowTally) {
        precondition(other.untyped == untyped, "tallies of different sources")
        for i in 0..<other.names.count {
            let mine: Int
            if i <= untyped {
                if names[i] == nil { names[i] = other.names[i] }
                mine = i
            } else if i == other.overflow {
                mine = overflow ?? append(name: Self.otherTypes, key: [], known: false, hash: nil)
                overflow = mine
            } else {
                mine = other.keys[i].withUnsafeBytes { slot(named: $0, known: other.known[i]) }
            }
            stored[mine] += other.stored[i]; quarantined[mine] += other.quarantined[i]; skipped[mine] += other.skipped[i]
        }
    }

    private mutating func append(name: String, key: [UInt8], known isKnown: Bool, hash: UInt64?) -> Int {
        let i = names.count
        names.append(name); known.append(isKnown); keys.append(key)
        stored.append(0); quarantined.append(0); skipped.append(0)
        if let hash {
            chain.append(byHash[hash] ?? -1)
            byHash[hash] = i
        } else {
            chain.append(-1)
        }
        return i
    }

    @inline(__always)
    private static func same(_ key: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard key.count == b.count else { return false }
        return key.isEmpty || key.withUnsafeBytes { memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 }
    }

    /// FNV-1a of a type's bytes.
    @inline(__always)
    private static func hash(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in b { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }
}

/// An error that rejects one row or document (quarantined with its reason), not the run: the
/// CSV and JSON file runs' `Reject`, a local time the zone cannot place.
public protocol RowRejection: Error {}

extension ZoneResolutionError: RowRejection {}
