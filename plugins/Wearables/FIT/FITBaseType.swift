/// The FIT protocol's base types (the low five bits of a field definition's type byte): their size
/// and the value that means "no value" (the SDK's invalid sentinel), so a missing reading is never
/// stored as 255 bpm or 0xFFFFFFFF steps.
struct FITBaseType: Sendable {
    let size: Int
    let kind: Kind
    enum Kind: Sendable { case unsigned, signed, unsignedZ, float, bytes }

    /// nil for a number the protocol does not define (such a field is read as bytes: skipped).
    static func of(_ typeByte: UInt8) -> FITBaseType? {
        switch typeByte & 0x1F {
        case 0x00, 0x02: FITBaseType(size: 1, kind: .unsigned)  // enum, uint8
        case 0x01: FITBaseType(size: 1, kind: .signed)
        case 0x03: FITBaseType(size: 2, kind: .signed)
        case 0x04: FITBaseType(size: 2, kind: .unsigned)
        case 0x05: FITBaseType(size: 4, kind: .signed)
        case 0x06: FITBaseType(size: 4, kind: .unsigned)
        case 0x07: FITBaseType(size: 1, kind: .bytes)  // string
        case 0x08: FITBaseType(size: 4, kind: .float)
        case 0x09: FITBaseType(size: 8, kind: .float)
        case 0x0A: FITBaseType(size: 1, kind: .unsignedZ)
        case 0x0B: FITBaseType(size: 2, kind: .unsignedZ)
        case 0x0C: FITBaseType(size: 4, kind: .unsignedZ)
        case 0x0D: FITBaseType(size: 1, kind: .bytes)
        case 0x0E: FITBaseType(size: 8, kind: .signed)
        case 0x0F: FITBaseType(size: 8, kind: .unsigned)
        case 0x10: FITBaseType(size: 8, kind: .unsignedZ)
        default: nil
        }
    }

    static let bytes = FITBaseType(size: 1, kind: .bytes)

    /// The first element of a field as a number, nil when it holds its type's invalid sentinel
    /// (all bits set for unsigned, the largest positive for signed, 0 for the `z` types, NaN-like
    /// all-ones for floats) or is not a number at all.
    @inline(__always)
    func number(_ p: UnsafeRawBufferPointer, at offset: Int, bigEndian: Bool) -> Double? {
        switch kind {
        case .bytes: return nil
        case .unsigned, .unsignedZ:
            let u = Self.load(p, offset, size, bigEndian)
            if kind == .unsignedZ { return u == 0 ? nil : Double(u) }
            return u == Self.allOnes(size) ? nil : Double(u)
        case .signed:
            let u = Self.load(p, offset, size, bigEndian)
            let shift = UInt64(64 - 8 * size)
            if u == Self.allOnes(size) >> 1 { return nil }  // 0x7F, 0x7FFF, …
            return Double(Int64(bitPattern: u << shift) >> Int64(shift))
        case .float:
            let u = Self.load(p, offset, size, bigEndian)
            if u == Self.allOnes(size) { return nil }
            let v = size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: u))) : Double(bitPattern: u)
            return v.isFinite ? v : nil
        }
    }

    @inline(__always)
    static func allOnes(_ size: Int) -> UInt64 { size == 8 ? .max : (1 << UInt64(8 * size)) - 1 }

    /// An unsigned integer of 1, 2, 4 or 8 bytes in the definition's byte order.
    @inline(__always)
    static func load(_ p: UnsafeRawBufferPointer, _ offset: Int, _ size: Int, _ bigEndian: Bool) -> UInt64 {
        var v: UInt64 = 0
        if bigEndian {
            for i in 0..<size { v = v << 8 | UInt64(p[offset + i]) }
        } else {
            for i in stride(from: size - 1, through: 0, by: -1) { v = v << 8 | UInt64(p[offset + i]) }
        }
        return v
    }
}
