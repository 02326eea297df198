import CLibXML2
import Glibc

/// Reads the plainest top-level element of an export straight from its bytes — a `<Record` whose
/// attributes are `name="value"` with nothing in the values but text and the five predefined
/// entities, closed by `/>` or holding only `<MetadataEntry …/>` children — and hands it to the
/// `ExportHandler` exactly as libxml2 would: the same names, the same decoded values (`&amp;` as
/// libxml2's `&#38;`), the line of each tag's end and the offset past the element. Such records
/// are nearly all of an export, and libxml2 spends about 20,000 instructions on each (its
/// attribute-value path reads the device's `&lt;…&gt;` a character at a time).
///
/// Anything else is declined and left to libxml2, which reads it as before: another child, a
/// comment, a character reference, single quotes, a tab, CR or LF inside a value (normalized by
/// XML), a control character, a byte sequence that is not UTF-8 of an XML character, a duplicate
/// or namespaced attribute, an element over `maxBytes`. So every well-formedness error is still
/// libxml2's to find and report, and recovery (`RecoveringParser`) is unchanged.
final class PlainRecordReader {
    enum Outcome: Equatable {
        /// The element was read and handed over; it ends at this index (past its last `>`), this
        /// many line ends after its `<`.
        case read(end: Int, lines: Int)
        case declined
        /// The bytes end inside the element.
        case needMore
    }

    /// Larger elements are left to libxml2 (and to `RecoveringParser`'s element bound).
    static let maxBytes = 64 << 10
    static let maxAttributes = 32
    static let maxChildren = 512

    private struct Attribute {
        var name: Int
        var start: Int, end: Int
        var entities: Bool
    }

    private struct Element {
        var firstAttribute: Int, count: Int
        /// Lines (from the element's `<`) and index of the end of the start tag, and of the element.
        var tagEndLines: Int, tagEnd: Int
    }

    // Touched by one parser thread, never through overlapping accesses: the runtime's exclusivity
    // checks would cost a fifth of the scan.
    @exclusivity(unchecked) private var names = NameTable()
    @exclusivity(unchecked) private var attributes = FixedList<Attribute>(capacity: 1024)
    @exclusivity(unchecked) private var elements = FixedList<Element>(capacity: maxChildren + 1)
    /// Per byte value: 1 where a value byte needs a closer look (`"`, `&`, `<`, controls, non-ASCII).
    private let special: UnsafeMutablePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 {
            t[b] = b < 0x20 || b >= 0x80 || b == Int(UInt8(ascii: "\"")) || b == Int(UInt8(ascii: "&")) || b == Int(UInt8(ascii: "<")) ? 1 : 0
        }
        return t
    }()
    /// libxml2's attribute array (5 pointers each) and the decoded values, reused for every element.
    private let slots = UnsafeMutablePointer<UnsafePointer<xmlChar>?>.allocate(capacity: 5 * maxAttributes)
    private let decoded = UnsafeMutablePointer<UInt8>.allocate(capacity: maxBytes)
    private let record = NameTable.literal("Record")
    private let metadataEntry = NameTable.literal("MetadataEntry")

    deinit {
        attributes.deallocate()
        elements.deallocate()
        special.deallocate()
        slots.deallocate()
        decoded.deallocate()
        names.release()
        record.deallocate()
        metadataEntry.deallocate()
    }

    /// Reads the element at `bytes[at]` (its `<`) if it is a plain record; on `.read` the handler has
    /// had its callbacks, with `position(line, offset)` telling it where each happened: `line` counts
    /// the newlines from `at`, `offset` is an index into `bytes`.
    func read(_ bytes: UnsafeRawBufferPointer, at: Int, handler: ExportHandler,
              position: (_ newlines: Int, _ index: Int) -> Void) -> Outcome {
        let outcome = scan(bytes, at: at)
        guard case .read(let end, let lines) = outcome else { return outcome }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for k in 0..<elements.count {
            let element = elements[k]
            position(element.tagEndLines, element.tagEnd)
            let name = k == 0 ? record : metadataEntry
            handler.startElement(name, slots(for: element, base), count: element.count)
            if k > 0 { handler.endElement(name) }
        }
        position(lines, end)
        handler.endElement(record)
        return outcome
    }

    /// Fills libxml2's attribute array for `element`, decoding values with entities.
    private func slots(for element: Element, _ base: UnsafePointer<UInt8>) -> UnsafeMutablePointer<UnsafePointer<xmlChar>?> {
        var out = 0
        for j in 0..<element.count {
            let a = attributes[element.firstAttribute + j]
            var start = UnsafePointer(base + a.start), end = UnsafePointer(base + a.end)
            if a.entities {
                let from = decoded + out
                out += Self.decode(start, a.end - a.start, into: from)
                start = UnsafePointer(from)
                end = UnsafePointer(decoded + out)
            }
            slots[5 * j] = UnsafePointer(names.pointer(a.name))
            slots[5 * j + 1] = nil
            slots[5 * j + 2] = nil
            slots[5 * j + 3] = start
            slots[5 * j + 4] = end
        }
        return slots
    }

    /// `&lt;` `&gt;` `&quot;` `&apos;` decoded, `&amp;` written as libxml2 writes it without entity
    /// substitution (`&#38;`); the scan admitted no other reference. Returns the bytes written.
    private static func decode(_ p: UnsafePointer<UInt8>, _ n: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0, o = 0
        while i < n {
            let b = p[i]
            guard b == UInt8(ascii: "&") else { out[o] = b; o += 1; i += 1; continue }
            switch Entity.at(p + i, n - i)! {
            case .lt: out[o] = UInt8(ascii: "<"); o += 1; i += 4
            case .gt: out[o] = UInt8(ascii: ">"); o += 1; i += 4
            case .quot: out[o] = UInt8(ascii: "\""); o += 1; i += 6
            case .apos: out[o] = UInt8(ascii: "'"); o += 1; i += 6
            case .amp:
                for (k, c) in "&#38;".utf8.enumerated() { out[o + k] = c }
                o += 5; i += 5
            }
        }
        return o
    }

    private enum Entity {
        case lt, gt, quot, apos, amp

        static func at(_ p: UnsafePointer<UInt8>, _ n: Int) -> Entity? {
            func matches(_ s: StaticString) -> Bool {
                n >= s.utf8CodeUnitCount && memcmp(p, s.utf8Start, s.utf8CodeUnitCount) == 0
            }
            if matches("&lt;") { return .lt }
            if matches("&gt;") { return .gt }
            if matches("&amp;") { return .amp }
            if matches("&quot;") { return .quot }
            if matches("&apos;") { return .apos }
            return nil
        }
    }

    // MARK: The scan (nothing is handed over until the whole element is known to be plain)

    private func scan(_ bytes: UnsafeRawBufferPointer, at: Int) -> Outcome {
        attributes.removeAll()
        elements.removeAll()
        let limit = min(bytes.count, at + Self.maxBytes)
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var i = at, lines = 0
        // The bytes ran out: more may come, unless the element is already too large.
        let short: Outcome = bytes.count - at >= Self.maxBytes ? .declined : .needMore

        guard limit - i >= 8 else { return short }
        guard Self.starts(p + i, "<Record") else { return .declined }
        i += 7
        switch tag(p, &i, limit, &lines, child: false) {
        case .needMore: return short
        case .declined: return .declined
        case .read(let closed):
            elements.append(Element(firstAttribute: 0, count: attributes.count, tagEndLines: lines, tagEnd: i - (closed ? 2 : 1)))
            if closed { return .read(end: i, lines: lines) }
        }
        // Children: only MetadataEntry, only self-closed, only spaces and line ends between them.
        while true {
            while i < limit, Self.isSpace(p[i]) {
                if p[i] == 0x0A { lines += 1 }
                i += 1
            }
            guard limit - i >= 9 else { return short }
            if memcmp(p + i, "</Record>", 9) == 0 { return .read(end: i + 9, lines: lines) }
            guard limit - i >= 15 else { return short }
            guard Self.starts(p + i, "<MetadataEntry"), elements.count < elements.capacity else { return .declined }
            i += 14
            let first = attributes.count
            switch tag(p, &i, limit, &lines, child: true) {
            case .needMore: return short
            case .declined: return .declined
            case .read(let closed):
                guard closed else { return .declined }
                elements.append(Element(firstAttribute: first, count: attributes.count - first, tagEndLines: lines, tagEnd: i - 2))
            }
        }
    }

    /// `name` at `p`, followed by what may follow an element's name (the caller made sure that byte is there).
    @inline(__always) private static func starts(_ p: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard memcmp(p, name.utf8Start, n) == 0 else { return false }
        return isSpace(p[n]) || p[n] == UInt8(ascii: "/") || p[n] == UInt8(ascii: ">")
    }

    private enum Tag { case read(closed: Bool), declined, needMore }

    /// The attributes after an element's name, through `/>` (closed) or `>`; `i` ends past it.
    private func tag(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ limit: Int, _ lines: inout Int, child: Bool) -> Tag {
        let first = attributes.count
        var seen: UInt64 = 0
        while true {
            // At least one whitespace before each attribute; any before the end of the tag.
            var spaced = false
            while i < limit, Self.isSpace(p[i]) {
                if p[i] == 0x0A { lines += 1 }
                i += 1
                spaced = true
            }
            guard i < limit else { return .needMore }
            if p[i] == UInt8(ascii: ">") { i += 1; return .read(closed: false) }
            if p[i] == UInt8(ascii: "/") {
                guard i + 1 < limit else { return .needMore }
                guard p[i + 1] == UInt8(ascii: ">") else { return .declined }
                i += 2
                return .read(closed: true)
            }
            guard spaced, Self.isNameStart(p[i]) else { return .declined }
            let position = attributes.count - first
            guard position < Self.maxAttributes, attributes.count < attributes.capacity else { return .declined }
            let hint = (child ? Self.maxAttributes : 0) + position
            let name: Int
            if let known = names.name(at: p + i, limit - i, hint: hint) {
                // The name this position had last time, followed by `="`: one comparison.
                name = known.id
                i += known.length
            } else {
                let nameStart = i
                while i < limit, Self.isNameByte(p[i]) { i += 1 }
                guard i + 1 < limit else { return .needMore }
                guard p[i] == UInt8(ascii: "="), p[i + 1] == UInt8(ascii: "\""),
                      let id = names.id(p + nameStart, i - nameStart, hint: hint) else { return .declined }
                name = id
            }
            // A name twice is libxml2's error to report (ids are below `NameTable.capacity`, 64).
            guard seen & (1 << UInt64(name)) == 0 else { return .declined }
            seen |= 1 << UInt64(name)
            i += 2
            let valueStart = i
            var entities = false
            let special = self.special
            while true {
                // Eight bytes at a time while none needs a look, then byte by byte.
                while limit - i >= 8, !Self.anySpecial(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) { i += 8 }
                while i < limit, special[Int(p[i])] == 0 { i += 1 }
                guard i < limit else { return .needMore }
                let b = p[i]
                if b == UInt8(ascii: "\"") { break }
                if b < 0x20 || b == UInt8(ascii: "<") { return .declined }
                if b == UInt8(ascii: "&") {
                    guard let e = Entity.at(p + i, limit - i) else { return limit - i < 6 ? .needMore : .declined }
                    entities = true
                    i += e == .lt || e == .gt ? 4 : e == .amp ? 5 : 6
                    continue
                }
                guard let n = Self.xmlCharacter(p + i, limit - i) else { return limit - i < 4 ? .needMore : .declined }
                i += n
            }
            attributes.append(Attribute(name: name, start: valueStart, end: i, entities: entities))
            i += 1
            // Another attribute needs whitespace first; the tag may end at once.
            guard i < limit else { return .needMore }
            guard Self.isSpace(p[i]) || p[i] == UInt8(ascii: "/") || p[i] == UInt8(ascii: ">") else { return .declined }
        }
    }

    /// Whether any of the eight bytes is `"`, `&`, `<`, below 0x20 or non-ASCII (exact: the
    /// zero-byte test has no false positives for "any").
    @inline(__always) static func anySpecial(_ x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let control = (x &- 0x20 &* ones) & ~x & highs
        return (x & highs) | control | hasZero(x ^ (0x22 &* ones)) | hasZero(x ^ (0x26 &* ones)) | hasZero(x ^ (0x3C &* ones)) != 0
    }

    /// The length of the UTF-8 sequence at `p` when it encodes a character XML allows, else nil
    /// (also when it is cut off: the caller tells the two apart by the bytes left).
    static func xmlCharacter(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        let b0 = p[0]
        func cont(_ k: Int) -> UInt32? { k < n && p[k] & 0xC0 == 0x80 ? UInt32(p[k] & 0x3F) : nil }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) == nil ? nil : 2
        case 0xE0...0xEF:
            guard let c1 = cont(1), let c2 = cont(2) else { return nil }
            let v = UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2
            // Overlong, surrogates, and U+FFFE/U+FFFF are not XML characters.
            guard v >= 0x800, !(0xD800...0xDFFF).contains(v), v != 0xFFFE, v != 0xFFFF else { return nil }
            return 3
        case 0xF0...0xF4:
            guard let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) else { return nil }
            let v = UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            guard (0x10000...0x10FFFF).contains(v) else { return nil }
            return 4
        default:
            return nil
        }
    }

    /// Space and LF only: a CR (which XML turns into a line end of its own) or a tab leaves the
    /// element to libxml2, so lines are counted as it counts them.
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A }

    @inline(__always) private static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_")
    }

    /// ASCII name bytes without `:` (a prefixed name is namespace business: libxml2's).
    @inline(__always) private static func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }
}

/// Attribute names met by `PlainRecordReader`, each kept once as a NUL-terminated string at a
/// stable address (`InternedNames` recognises a name by its address, as with libxml2's dictionary).
/// Bounded: a document with endless distinct names leaves its elements to libxml2.
struct NameTable {
    private var lengths: [Int] = []
    private var pointers: [UnsafeMutablePointer<UInt8>] = []
    static let capacity = 64
    /// Elements of one kind repeat their attributes in one order: the name met at `hint` (a
    /// position) last time is tried first.
    private var hints = [Int](repeating: -1, count: 2 * PlainRecordReader.maxAttributes)

    static func literal(_ s: StaticString) -> UnsafeMutablePointer<UInt8> { copy(s.utf8Start, s.utf8CodeUnitCount) }

    /// A NUL-terminated copy, zero-padded to `padded` bytes: the handler compares names with
    /// `named`, a memcmp of the literal's length + 1, which may read that far into a shorter name
    /// (libxml2's dictionary names sit in larger pools; these must too).
    static func copy(_ p: UnsafePointer<UInt8>, _ n: Int) -> UnsafeMutablePointer<UInt8> {
        let size = max(n + 1, padded)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        out.initialize(repeating: 0, count: size)
        out.update(from: p, count: n)
        return out
    }

    static let padded = 64

    mutating func id(_ p: UnsafePointer<UInt8>, _ n: Int, hint: Int) -> Int? {
        let last = hints[hint]
        if last >= 0, matches(last, p, n) { return last }
        for k in lengths.indices where matches(k, p, n) {
            hints[hint] = k
            return k
        }
        guard lengths.count < Self.capacity else { return nil }
        lengths.append(n)
        pointers.append(Self.copy(p, n))
        hints[hint] = lengths.count - 1
        return lengths.count - 1
    }

    /// The name last met at `hint` when the bytes at `p` (`n` of them) are it followed by `="`.
    @inline(__always) func name(at p: UnsafePointer<UInt8>, _ n: Int, hint: Int) -> (id: Int, length: Int)? {
        let k = hints[hint]
        guard k >= 0 else { return nil }
        let length = lengths[k]
        guard n > length + 1, p[length] == UInt8(ascii: "="), p[length + 1] == UInt8(ascii: "\""),
              memcmp(pointers[k], p, length) == 0 else { return nil }
        return (k, length)
    }

    @inline(__always) private func matches(_ k: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        lengths[k] == n && memcmp(pointers[k], p, n) == 0
    }

    func pointer(_ id: Int) -> UnsafeMutablePointer<UInt8> { pointers[id] }

    func release() { for p in pointers { p.deallocate() } }
}

/// A list of at most `capacity` plain values in one allocation: appended to and cleared once per
/// element, read by index, with none of an array's copy-on-write checks.
struct FixedList<T> {
    private let storage: UnsafeMutablePointer<T>
    let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// The caller checks `count < capacity` first.
    @inline(__always) mutating func append(_ value: T) {
        (storage + count).initialize(to: value)
        count += 1
    }

    @inline(__always) subscript(_ i: Int) -> T { storage[i] }

    @inline(__always) mutating func removeAll() {
        storage.deinitialize(count: count)
        count = 0
    }

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}
