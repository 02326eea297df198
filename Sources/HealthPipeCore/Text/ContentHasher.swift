/// A fast streaming 64-bit content hash (8 bytes per step), computed while a file is parsed, so
/// the imports log can tell a re-import of the same bytes without reading the file twice.
/// Not cryptographic: it identifies files, it does not authenticate them.
public struct ContentHasher: Sendable {
    private var h: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var length: UInt64 = 0
    private var tail: UInt64 = 0
    private var tailBytes = 0

    public init() {}

    public mutating func update(_ buf: UnsafeRawBufferPointer) {
        var i = 0
        let n = buf.count
        length &+= UInt64(n)
        while tailBytes != 0 && i < n {
            tail |= UInt64(buf[i]) << (8 * UInt64(tailBytes))
            tailBytes += 1
            i += 1
            if tailBytes == 8 { mix(tail); tail = 0; tailBytes = 0 }
        }
        while i + 8 <= n {
            mix(buf.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        while i < n {
            tail |= UInt64(buf[i]) << (8 * UInt64(tailBytes))
            tailBytes += 1
            i += 1
        }
    }

    @inline(__always)
    private mutating func mix(_ w: UInt64) {
        h = (h ^ (w &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB
        h = (h << 31) | (h >> 33)
    }

    public func finalize() -> String {
        var x = h
        if tailBytes > 0 { x = (x ^ (tail &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB }
        x ^= length
        x ^= x >> 33; x = x &* 0xFF51_AFD7_ED55_8CCD; x ^= x >> 33; x = x &* 0xC4CE_B9FE_1A85_EC53; x ^= x >> 33
        let hex = String(x, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
