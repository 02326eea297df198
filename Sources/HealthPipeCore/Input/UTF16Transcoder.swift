/// Streams UTF-16 (little- or big-endian, found by its byte-order mark) into UTF-8, a chunk at a
/// time: a code unit or surrogate pair split across chunks is carried over. Unpaired surrogates
/// become U+FFFD, so the output is always valid UTF-8.
public struct UTF16Transcoder: Sendable {
    public let bigEndian: Bool
    private var carry: UInt8? = nil
    private var highSurrogate: UInt16? = nil

    public init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// The encoding a byte-order mark names: nil for no UTF-16 BOM; the BOM is 2 bytes.
    public static func byteOrder(of prefix: some Collection<UInt8>) -> Bool? {
        var it = prefix.makeIterator()
        guard let a = it.next(), let b = it.next() else { return nil }
        if a == 0xFF, b == 0xFE {
            // FF FE 00 00 is UTF-32LE: not UTF-16.
            if let c = it.next(), let d = it.next(), c == 0, d == 0 { return nil }
            return false
        }
        if a == 0xFE, b == 0xFF { return true }
        return nil
    }

    /// Appends the UTF-8 form of `bytes` to `out`.
    public mutating func transcode(_ bytes: some Collection<UInt8>, into out: inout [UInt8]) {
        for byte in bytes {
            guard let first = carry else { carry = byte; continue }
            carry = nil
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(byte) : UInt16(byte) << 8 | UInt16(first)
            unitArrived(unit, &out)
        }
    }

    /// End of input: a dangling half unit or high surrogate becomes U+FFFD.
    public mutating func finish(into out: inout [UInt8]) {
        if highSurrogate != nil || carry != nil { Self.append(0xFFFD, &out) }
        highSurrogate = nil
        carry = nil
    }

    private mutating func unitArrived(_ unit: UInt16, _ out: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
                Self.append(scalar, &out)
                return
            }
            Self.append(0xFFFD, &out)
        }
        switch unit {
        case 0xD800...0xDBFF: highSurrogate = unit
        case 0xDC00...0xDFFF: Self.append(0xFFFD, &out)
        default: Self.append(UInt32(unit), &out)
        }
    }

    private static func append(_ s: UInt32, _ out: inout [UInt8]) {
        switch s {
        case 0..<0x80: out.append(UInt8(s))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | s >> 6)); out.append(UInt8(0x80 | s & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | s >> 12)); out.append(UInt8(0x80 | s >> 6 & 0x3F)); out.append(UInt8(0x80 | s & 0x3F))
        default:
            out.append(UInt8(0xF0 | s >> 18)); out.append(UInt8(0x80 | s >> 12 & 0x3F))
            out.append(UInt8(0x80 | s >> 6 & 0x3F)); out.append(UInt8(0x80 | s & 0x3F))
        }
    }
}
