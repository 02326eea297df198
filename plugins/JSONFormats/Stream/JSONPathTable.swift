/// The paths a mapper reads (`sgv`, `date`, `bolus.amount`, `nutrition.carbohydrate.net`), each
/// given a slot. The parser hashes every node's path as it goes and records the node of each
/// registered path in its slot, so a mapper reads a field by index instead of searching.
/// Array elements take the segment `#` (`store.#.units` matches any element).
package struct JSONPathTable {
    let paths: [String]
    private var hashes: [UInt64]
    private var table: [(hash: UInt64, slot: Int32)]
    private let mask: Int

    var count: Int { paths.count }

    package init(_ paths: [String]) {
        self.paths = paths
        hashes = paths.map(Self.hash(path:))
        var size = 16
        while size < paths.count * 4 { size *= 2 }
        mask = size - 1
        table = Array(repeating: (0, -1), count: size)
        for (slot, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h) & mask
            while table[i].slot >= 0 {
                precondition(table[i].hash != h, "duplicate JSON path '\(paths[slot])'")
                i = (i + 1) & mask
            }
            table[i] = (h, Int32(slot))
        }
    }

    /// The slot of a node's path hash, or -1.
    @inline(__always)
    func slot(of hash: UInt64) -> Int32 {
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let e = table[i]
            if e.slot < 0 { return -1 }
            if e.hash == hash { return e.slot }
            i = (i + 1) & mask
        }
    }

    // MARK: Hashing (FNV-1a per segment, chained per level)

    static let rootHash: UInt64 = 0xCBF2_9CE4_8422_2325
    static let elementHash: UInt64 = segmentHash(Array("#".utf8))

    @inline(__always)
    static func segmentHash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in 0..<n { h = (h ^ UInt64(p[i])) &* 0x0000_0100_0000_01B3 }
        return h
    }

    static func segmentHash(_ bytes: [UInt8]) -> UInt64 {
        bytes.isEmpty ? 0xCBF2_9CE4_8422_2325 : bytes.withUnsafeBufferPointer { segmentHash($0.baseAddress!, $0.count) }
    }

    @inline(__always)
    static func child(_ parent: UInt64, _ segment: UInt64) -> UInt64 {
        (parent &* 0x9E37_79B9_7F4A_7C15) ^ segment
    }

    static func hash(path: String) -> UInt64 {
        var h = rootHash
        for seg in path.split(separator: ".", omittingEmptySubsequences: false) {
            h = child(h, segmentHash(Array(seg.utf8)))
        }
        return h
    }
}
