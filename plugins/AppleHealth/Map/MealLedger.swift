import HealthPipeCore

/// Top-level carbohydrate records waiting to become meal events. A Food correlation describes the
/// same meal (with protein and fat) and a meal must be counted once, but Apple writes correlations
/// after all records, so every carbohydrate record is held to the end of the document: 48 bytes
/// each, in file order, in fixed-size chunks (no doubling copies). Correlations only leave a claim;
/// claims are matched at the end, so the order of records and correlations does not matter.
struct MealLedger {
    struct Key: Hashable {
        var source: Symbol
        var start: Int64
        var carbsBits: UInt64
    }

    struct Pending {
        var start: Int64
        var end: Int64
        var carbs: Double
        var line: Int64
        var source: Symbol
        var offset: Int32
        var device: Symbol
        var flags: RecordFlags

        var key: Key { Key(source: source, start: start, carbsBits: carbs.bitPattern) }
    }

    static let chunkSize = 4096
    private var chunks: [[Pending]] = []
    /// How many pending records each Food correlation claimed (usually one per key).
    private var claims: [Key: Int] = [:]

    mutating func add(_ p: Pending) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(p)
    }

    /// A Food correlation's carbohydrates: one record with this key is that meal's, not a meal of its own.
    mutating func claim(_ key: Key) { claims[key, default: 0] += 1 }

    /// Calls `body` with every unclaimed record in file order, releasing each chunk once it is done.
    mutating func drain(_ body: (Pending) throws -> Void) rethrows {
        while !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            for p in chunk {
                if !claims.isEmpty, let n = claims[p.key] {
                    if n == 1 { claims[p.key] = nil } else { claims[p.key] = n - 1 }
                    continue
                }
                try body(p)
            }
        }
        claims = [:]
    }
}
