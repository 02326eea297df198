import Foundation

/// Parses one JSON object from a byte range into a `JSONDocument`'s node list. Recursive descent
/// over raw bytes: no Foundation, no String per value, strings located with memchr. Reports
/// `incomplete` when the bytes end inside the object (the reader then reads more and retries).
struct JSONDocumentParser {
    enum Result {
        /// Parsed; the object ended `length` bytes after its start and spanned `newlines` line breaks.
        case complete(length: Int, newlines: Int)
        case incomplete
        /// Not valid JSON at byte `offset` of the object.
        case invalid(offset: Int, reason: String)
    }

    static let maxDepth = 64

    private var p: UnsafePointer<UInt8> = UnsafePointer(bitPattern: 1)!
    private var n = 0
    private var i = 0
    private var newlines = 0
    private var failure: Result? = nil
    private unowned(unsafe) var doc: JSONDocument
    private let table: JSONPathTable

    init(document: JSONDocument) {
        doc = document
        table = document.table
    }

    /// Parses the object starting at `base[0]` (which must be `{`), reading at most `count` bytes.
    mutating func parse(_ base: UnsafePointer<UInt8>, count: Int) -> Result {
        p = base
        n = count
        i = 0
        newlines = 0
        failure = nil
        doc.reset(base: base, count: count)
        guard members(parent: -1, parentHash: JSONPathTable.rootHash, depth: 1) else { return failure ?? .incomplete }
        return .complete(length: i, newlines: newlines)
    }

    // MARK: Grammar

    /// `{ "k": v, … }` starting at `p[i] == "{"`; leaves `i` after the `}`.
    private mutating func members(parent: Int32, parentHash: UInt64, depth: Int) -> Bool {
        i += 1
        guard skipSpace() else { return false }
        if p[i] == UInt8(ascii: "}") { i += 1; return true }
        while true {
            guard p[i] == UInt8(ascii: "\"") else { return fail("expected a key in quotes") }
            let keyStart = i + 1
            guard let keyEnd = stringEnd(from: keyStart) else { return false }
            let keyCount = keyEnd.end - keyStart
            i = keyEnd.end + 1
            guard skipSpace() else { return false }
            guard p[i] == UInt8(ascii: ":") else { return fail("expected ':' after a key") }
            i += 1
            guard skipSpace() else { return false }
            let h = JSONPathTable.child(parentHash, JSONPathTable.segmentHash(p + keyStart, keyCount))
            guard value(parent: parent, keyStart: keyStart, keyCount: keyCount, index: 0, hash: h, depth: depth) else { return false }
            if let done = afterItem(closedBy: UInt8(ascii: "}"), else: "expected ',' or '}' after a value") { return done }
        }
    }

    /// `[ v, … ]` starting at `p[i] == "["`.
    private mutating func elements(parent: Int32, parentHash: UInt64, depth: Int) -> Bool {
        i += 1
        guard skipSpace() else { return false }
        if p[i] == UInt8(ascii: "]") { i += 1; return true }
        let h = JSONPathTable.child(parentHash, JSONPathTable.elementHash)
        var index: Int32 = 0
        while true {
            guard value(parent: parent, keyStart: i, keyCount: 0, index: index, hash: h, depth: depth) else { return false }
            index += 1
            if let done = afterItem(closedBy: UInt8(ascii: "]"), else: "expected ',' or ']' in an array") { return done }
        }
    }

    /// After a member or element: `,` and the next one (nil: go on), or `close` (true), else a failure.
    @inline(__always)
    private mutating func afterItem(closedBy close: UInt8, else message: @autoclosure () -> String) -> Bool? {
        guard skipSpace() else { return false }
        let c = p[i]
        if c == UInt8(ascii: ",") {
            i += 1
            return skipSpace() ? nil : false
        }
        if c == close { i += 1; return true }
        return fail(message())
    }

    /// One value at `p[i]`, recorded as a node (containers first, then their members).
    private mutating func value(parent: Int32, keyStart: Int, keyCount: Int, index: Int32, hash: UInt64, depth: Int,
                                wrapped: Bool = false) -> Bool {
        let c = p[i]
        let start = i
        var kind: JSONKind
        var vStart = i, vCount = 0
        switch c {
        case UInt8(ascii: "\""):
            guard let s = stringEnd(from: i + 1) else { return false }
            kind = s.escaped ? .escapedString : .string
            vStart = i + 1
            vCount = s.end - vStart
            i = s.end + 1
        case UInt8(ascii: "{"):
            if let inner = extendedWrapper() {
                // {"$date": v} and friends: the wrapped value stands for the object.
                i = inner
                guard value(parent: parent, keyStart: keyStart, keyCount: keyCount, index: index, hash: hash, depth: depth,
                            wrapped: true), skipSpace() else { return false }
                guard p[i] == UInt8(ascii: "}") else { return fail("an extended-JSON wrapper holds more than one key") }
                i += 1
                return true
            }
            guard depth < Self.maxDepth else { return fail("nested deeper than \(Self.maxDepth) levels") }
            let me = append(parent, keyStart, keyCount, index, .object, start, 0, hash, wrapped)
            guard members(parent: me, parentHash: hash, depth: depth + 1) else { return false }
            doc.nodes[Int(me)].valueCount = Int32(i - start)
            return true
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { return fail("nested deeper than \(Self.maxDepth) levels") }
            let me = append(parent, keyStart, keyCount, index, .array, start, 0, hash, wrapped)
            guard elements(parent: me, parentHash: hash, depth: depth + 1) else { return false }
            doc.nodes[Int(me)].valueCount = Int32(i - start)
            return true
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            kind = .bool
            guard literal(c == UInt8(ascii: "t") ? "true" : "false") else { return false }
            vCount = i - vStart
        case UInt8(ascii: "n"):
            kind = .null
            guard literal("null") else { return false }
            vCount = i - vStart
        default:
            guard c == UInt8(ascii: "-") || (c &- 0x30) <= 9 else { return fail("unexpected character '\(Self.show(c))'") }
            kind = .number
            while i < n, Self.isNumberByte(p[i]) { i += 1 }
            guard i < n else { return incomplete() }
            vCount = i - vStart
        }
        _ = append(parent, keyStart, keyCount, index, kind, vStart, vCount, hash, wrapped)
        return true
    }

    @inline(__always)
    private mutating func append(_ parent: Int32, _ keyStart: Int, _ keyCount: Int, _ index: Int32, _ kind: JSONKind,
                                 _ vStart: Int, _ vCount: Int, _ hash: UInt64, _ wrapped: Bool) -> Int32 {
        let me = Int32(doc.nodes.count)
        doc.nodes.append(JSONNode(keyStart: Int32(keyStart), keyCount: Int32(keyCount), valueStart: Int32(vStart),
                                  valueCount: Int32(vCount), parent: parent, index: index, kind: kind, wrapped: wrapped,
                                  pathHash: hash))
        let slot = table.slot(of: hash)
        if slot >= 0, doc.slots[Int(slot)] < 0 { doc.slots[Int(slot)] = me }
        return me
    }

    // MARK: Lexing

    /// End of a string whose bytes start at `from` (the index of its closing quote), and whether it has escapes.
    @inline(__always)
    private mutating func stringEnd(from: Int) -> (end: Int, escaped: Bool)? {
        guard from < n else { _ = incomplete(); return nil }
        let rest = n - from
        guard let q = memchr(p + from, 0x22, rest) else { _ = incomplete(); return nil }
        let quote = UnsafePointer<UInt8>(q.assumingMemoryBound(to: UInt8.self)) - p
        if memchr(p + from, 0x5C, quote - from) == nil {
            if memchr(p + from, 0x0A, quote - from) != nil { _ = fail("a line break inside a string"); return nil }
            return (quote, false)
        }
        // Escapes: walk byte by byte so an escaped quote does not end the string.
        var j = from
        while j < n {
            let c = p[j]
            if c == 0x22 { return (j, true) }
            if c == 0x5C { j += 2; continue }
            if c == 0x0A { _ = fail("a line break inside a string"); return nil }
            j += 1
        }
        _ = incomplete()
        return nil
    }

    /// After `{` of `{"$date": …}`-style wrappers: the index of the wrapped value, or nil.
    private func extendedWrapper() -> Int? {
        var j = i + 1
        while j < n, Self.isSpace(p[j]) { j += 1 }
        guard j + 2 < n, p[j] == 0x22, p[j + 1] == UInt8(ascii: "$") else { return nil }
        let k = j + 1
        guard let q = memchr(p + k, 0x22, n - k) else { return nil }
        let end = UnsafePointer<UInt8>(q.assumingMemoryBound(to: UInt8.self)) - p
        let key = UnsafeRawBufferPointer(start: p + k, count: end - k)
        guard Self.wrappers.contains(where: { $0.count == key.count && $0.elementsEqual(key) }) else { return nil }
        j = end + 1
        while j < n, Self.isSpace(p[j]) { j += 1 }
        guard j < n, p[j] == UInt8(ascii: ":") else { return nil }
        j += 1
        while j < n, Self.isSpace(p[j]) { j += 1 }
        return j < n ? j : nil
    }

    static let wrappers: [[UInt8]] = ["$date", "$oid", "$numberLong", "$numberInt", "$numberDouble", "$numberDecimal"]
        .map { Array($0.utf8) }

    private mutating func literal(_ word: StaticString) -> Bool {
        let len = word.utf8CodeUnitCount
        guard i + len <= n else { return incomplete() }
        guard memcmp(p + i, word.utf8Start, len) == 0 else { return fail("unexpected literal (expected \(word))") }
        i += len
        return true
    }

    /// Skips whitespace; false (incomplete) at the end of the bytes.
    @inline(__always)
    private mutating func skipSpace() -> Bool {
        while i < n {
            let c = p[i]
            if c > 0x20 { return true }
            if c == 0x0A { newlines += 1 } else if c != 0x20 && c != 0x0D && c != 0x09 { return true }
            i += 1
        }
        return incomplete()
    }

    private mutating func incomplete() -> Bool {
        if failure == nil { failure = .incomplete }
        return false
    }

    private mutating func fail(_ reason: String) -> Bool {
        failure = .invalid(offset: i, reason: reason)
        return false
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    @inline(__always) static func isNumberByte(_ c: UInt8) -> Bool {
        (c &- 0x30) <= 9 || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
            || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
    }

    static func show(_ c: UInt8) -> String { c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : String(format: "\\x%02X", c) }
}
