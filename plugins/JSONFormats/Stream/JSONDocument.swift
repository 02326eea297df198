import Foundation
import HealthPipeCore

/// What a parsed JSON value is.
package enum JSONKind: UInt8 {
    case string, escapedString, number, bool, null, object, array
}

/// One value of a parsed document: where its key and its value lie in the document's bytes, its
/// parent, and a hash of its path (`bolus.amount`) so mappers find the fields they want without
/// comparing strings. Extended-JSON wrappers (`{"$date": …}`, `{"$oid": …}`, `{"$numberLong": …}`)
/// are folded into the value they wrap.
struct JSONNode {
    var keyStart: Int32
    var keyCount: Int32
    /// Scalars: the bytes between the quotes (strings) or the literal; containers: the whole text.
    var valueStart: Int32
    var valueCount: Int32
    var parent: Int32
    /// Position in the parent array (0 for object members).
    var index: Int32
    var kind: JSONKind
    /// The value came wrapped in a MongoDB extended-JSON object (`$date`, `$oid`…).
    var wrapped: Bool
    var pathHash: UInt64
}

/// One top-level JSON object of a file, parsed into a flat node list (pre-order), valid only while
/// the reader hands it to its callback: the nodes point into the reader's buffer. Fields a mapper
/// asked for by path (`JSONPathTable`) are found in `slots` in O(1).
package final class JSONDocument {
    private(set) var base: UnsafePointer<UInt8> = UnsafePointer(bitPattern: 1)!
    private(set) var count = 0
    // Filled by one parser on the reader's thread, then read by the mapper: no overlapping access,
    // so the runtime's per-access exclusivity checks (hot: every node) are turned off.
    @exclusivity(unchecked) var nodes: ContiguousArray<JSONNode> = []
    /// Node index per registered path (-1: absent).
    @exclusivity(unchecked) var slots: [Int32]
    let table: JSONPathTable
    /// 1-based line where the document starts, and its index in the file (array position or line order).
    package var line: Int64 = 0
    var index: Int = 0
    /// True when the file is a top-level array (paths read `$[12].sgv`), false for one document per line.
    var inArray = false

    /// Bytes this document owns (detached copies only); the reader's documents borrow its buffer.
    private var owned: UnsafeMutablePointer<UInt8>?

    init(table: JSONPathTable) {
        self.table = table
        slots = Array(repeating: -1, count: table.count)
        nodes.reserveCapacity(64)
    }

    deinit { owned?.deallocate() }

    func adopt(base: UnsafePointer<UInt8>, count: Int, nodes: ContiguousArray<JSONNode>, slots: [Int32],
               owned: UnsafeMutablePointer<UInt8>) {
        self.base = base
        self.count = count
        self.nodes = nodes
        self.slots = slots
        self.owned = owned
    }

    func reset(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
        nodes.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    // MARK: Access by registered path

    @inline(__always) package func node(_ slot: Int) -> Int? {
        let n = slots[slot]
        return n < 0 ? nil : Int(n)
    }

    @inline(__always) package func has(_ slot: Int) -> Bool { slots[slot] >= 0 }

    /// A non-null value is present.
    @inline(__always) package func present(_ slot: Int) -> Bool {
        guard let n = node(slot) else { return false }
        return nodes[n].kind != .null
    }

    @inline(__always) package func kind(_ slot: Int) -> JSONKind? { node(slot).map { nodes[$0].kind } }
    @inline(__always) package func kind(node n: Int) -> JSONKind { nodes[n].kind }

    /// The raw bytes of a scalar (a string's bytes without quotes, escapes not decoded).
    @inline(__always) package func bytes(_ slot: Int) -> UnsafeRawBufferPointer? {
        guard let n = node(slot) else { return nil }
        return valueBytes(n)
    }

    @inline(__always) package func valueBytes(_ n: Int) -> UnsafeRawBufferPointer {
        let node = nodes[n]
        return UnsafeRawBufferPointer(start: base + Int(node.valueStart), count: Int(node.valueCount))
    }

    @inline(__always) func keyBytes(_ n: Int) -> UnsafeRawBufferPointer {
        let node = nodes[n]
        return UnsafeRawBufferPointer(start: base + Int(node.keyStart), count: Int(node.keyCount))
    }

    /// A number, or a string holding one (legacy Nightscout writes `"sgv": "178"`, extended JSON `{"$numberLong": "…"}`).
    package func number(_ slot: Int) -> Double? {
        guard let n = node(slot) else { return nil }
        return number(node: n)
    }

    package func number(node n: Int) -> Double? {
        switch nodes[n].kind {
        case .number, .string: return DecimalText.double(valueBytes(n))
        default: return nil
        }
    }

    /// A string value (escapes decoded); numbers and booleans as their literal text.
    package func string(_ slot: Int) -> String? {
        guard let n = node(slot) else { return nil }
        return string(node: n)
    }

    func string(node n: Int) -> String? {
        switch nodes[n].kind {
        case .string, .number, .bool: return String(decoding: valueBytes(n), as: UTF8.self)
        case .escapedString: return JSONScalars.unescape(valueBytes(n))
        case .null, .object, .array: return nil
        }
    }

    package func bool(_ slot: Int) -> Bool? {
        guard let n = node(slot), nodes[n].kind == .bool else { return nil }
        return valueBytes(n).first == UInt8(ascii: "t")
    }

    /// The text of a string value as UTF-8, escapes decoded — what every comparison, cache lookup
    /// and date reading of a string must see: writers escape freely (Java's org.json and Apple's
    /// JSONSerialization write `loop:\/\/iPhone`). A plain string is passed as the input's own bytes;
    /// an escaped one is decoded for the call. nil when the value is absent or not a string.
    @inline(__always) package func withText<R>(_ slot: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard let n = node(slot) else { return nil }
        switch nodes[n].kind {
        case .string: return try body(valueBytes(n))
        case .escapedString: return try JSONScalars.unescapedBytes(valueBytes(n)).withUnsafeBytes(body)
        default: return nil
        }
    }

    /// Compares a string value with a literal, without creating a String.
    func equals(_ slot: Int, _ literal: StaticString) -> Bool {
        withText(slot) { b in b.count == literal.utf8CodeUnitCount && (b.count == 0 || memcmp(b.baseAddress!, literal.utf8Start, b.count) == 0) } ?? false
    }

    // MARK: Walking (cold paths: profiles, metadata)

    /// Indices of the direct children of node `n` (or of the document when nil).
    package func children(of n: Int?) -> [Int] {
        let parent = Int32(n ?? -1)
        var out: [Int] = []
        var i = (n ?? -1) + 1
        while i < nodes.count {
            if nodes[i].parent == parent { out.append(i) }
            else if parent >= 0, !isDescendant(i, of: Int(parent)) { break }
            i += 1
        }
        return out
    }

    package func child(of n: Int?, named key: String) -> Int? {
        let k = Array(key.utf8)
        for c in children(of: n) {
            let kb = keyBytes(c)
            if kb.count == k.count, k.withUnsafeBytes({ memcmp($0.baseAddress!, kb.baseAddress!, k.count) == 0 }) { return c }
        }
        return nil
    }

    private func isDescendant(_ i: Int, of ancestor: Int) -> Bool {
        var p = Int(nodes[i].parent)
        while p >= 0 {
            if p == ancestor { return true }
            p = Int(nodes[p].parent)
        }
        return false
    }

    /// The node's path for error messages: `$[12].bolus.amount` (array files) or `$.bolus.amount`.
    package func path(of n: Int?) -> String {
        var parts: [String] = []
        var i = n ?? -1
        while i >= 0 {
            let node = nodes[i]
            let p = Int(node.parent)
            if p >= 0, nodes[p].kind == .array { parts.append("[\(node.index)]") }
            else { parts.append("." + String(decoding: keyBytes(i), as: UTF8.self)) }
            i = p
        }
        return (inArray ? "$[\(index)]" : "$") + parts.reversed().joined()
    }

    package func path(ofSlot slot: Int) -> String {
        node(slot).map { path(of: $0) } ?? (inArray ? "$[\(index)]" : "$") + "." + table.paths[slot]
    }

    /// The parser saw the document end after `length` bytes: its bytes are exactly those.
    func end(at length: Int) { count = min(count, length) }

    /// The document's exact text, from `{` to its `}`, for the dead-letter file.
    func rawText() -> String {
        String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
