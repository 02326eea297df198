#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif

/// Cleans the byte stream before libxml2 sees it, so exports that are not well-formed still import
/// and nothing in a DTD is ever processed:
/// - the `<!DOCTYPE …>` declaration, internal subset included, is cut out. iOS 16 ships a broken
///   internal subset (the VisionPrescription ATTLIST lacks its `>`), and a subset is also where
///   XXE and billion-laughs entities live: without it no entity can be declared, let alone expanded.
/// - U+000B (vertical tab, invalid in XML 1.0) is dropped; some exports contain it in values.
/// The head of the stream (up to the root element) is buffered so the DOCTYPE is found even when it
/// spans chunks; after that bytes pass straight through (copied only when a chunk holds a 0x0B).
struct PrologFilter {
    /// The input was transcoded to UTF-8: the XML declaration's encoding is rewritten to match.
    var declareUTF8 = false
    private var head: [UInt8] = []
    private var inHead = true
    /// The head is released once this many bytes are buffered, DOCTYPE or not.
    static let headLimit = 4 << 20
    private var scratch: [UInt8] = []

    /// Passes cleaned bytes to `out`; `final` flushes a buffered head at the end of the input.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, final: Bool = false, _ out: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        if inHead {
            head.append(contentsOf: chunk)
            guard final || head.count >= Self.headLimit || Self.rootStarted(head) else { return }
            inHead = false
            var cleaned = Self.removingDoctype(head)
            cleaned.removeAll { $0 == 0x0B }
            if declareUTF8 { cleaned = Self.declaringUTF8(cleaned) }
            head = []
            try cleaned.withUnsafeBytes { try out($0) }
            return
        }
        guard let base = chunk.baseAddress, memchr(base, 0x0B, chunk.count) != nil else { try out(chunk); return }
        scratch.removeAll(keepingCapacity: true)
        for b in chunk where b != 0x0B { scratch.append(b) }
        try scratch.withUnsafeBytes { try out($0) }
    }

    /// True once the buffered head holds the start of an element after any DOCTYPE declaration.
    static func rootStarted(_ bytes: [UInt8]) -> Bool {
        var from = 0
        if let range = doctypeRange(bytes) {
            guard range.complete else { return false }
            from = range.end
        }
        var i = from
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), isNameStart(bytes[i + 1]) { return true }
            i += 1
        }
        return false
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b >= 0x80
    }

    private static func followedByClose(_ b: [UInt8], from: Int) -> Bool {
        var j = from
        while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 }
        return j < b.count && b[j] == UInt8(ascii: ">")
    }

    /// Where the DOCTYPE declaration is: from `<!DOCTYPE` to `]>` when it has an internal subset,
    /// else to the first `>`; `complete` is false when its end is not in `bytes` yet.
    static func doctypeRange(_ bytes: [UInt8]) -> (start: Int, end: Int, complete: Bool)? {
        let marker = Array("<!DOCTYPE".utf8)
        guard let start = firstIndex(of: marker, in: bytes) else { return nil }
        var i = start + marker.count
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: ">") { return (start, i + 1, true) }
            if b == UInt8(ascii: "[") {
                var j = i + 1
                while j < bytes.count {
                    if bytes[j] == UInt8(ascii: "]"), followedByClose(bytes, from: j + 1) {
                        var k = j + 1
                        while bytes[k] != UInt8(ascii: ">") { k += 1 }
                        return (start, k + 1, true)
                    }
                    j += 1
                }
                return (start, bytes.count, false)
            }
            i += 1
        }
        return (start, bytes.count, false)
    }

    /// The head without its DOCTYPE declaration; the newlines inside are kept so line numbers stay true.
    static func removingDoctype(_ bytes: [UInt8]) -> [UInt8] {
        guard let r = doctypeRange(bytes) else { return bytes }
        let newlines = bytes[r.start..<r.end].filter { $0 == 0x0A }.count
        var out = Array(bytes[..<r.start])
        out.append(contentsOf: repeatElement(UInt8(0x0A), count: newlines))
        out.append(contentsOf: bytes[r.end...])
        return out
    }

    /// The head with the XML declaration's `encoding="…"` value replaced by UTF-8.
    static func declaringUTF8(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: Array("?>".utf8), in: bytes),
              let key = firstIndex(of: Array("encoding".utf8), in: Array(bytes[..<end])) else { return bytes }
        var i = key + 8
        while i < end, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "'") { i += 1 }
        guard i < end else { return bytes }
        let quote = bytes[i]
        var j = i + 1
        while j < end, bytes[j] != quote { j += 1 }
        guard j < end else { return bytes }
        return Array(bytes[...i]) + Array("UTF-8".utf8) + Array(bytes[j...])
    }

    static func firstIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        outer: for i in 0...(hay.count - needle.count) {
            for j in 0..<needle.count where hay[i + j] != needle[j] { continue outer }
            return i
        }
        return nil
    }
}
