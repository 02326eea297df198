/// A fast streaming 64-bit content hash, computed while a file is parsed, so the imports log can
/// tell a re-import of the same bytes without reading the file twice. Four independent lanes take
/// 32 bytes per step (the multiplies of one lane would otherwise wait on each other), and the
/// result does not depend on how the bytes were split into chunks.
/// Not cryptographic: it identifies files, it does not authenticate them.
public struct ContentHasher: Sendable {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    private var lanes: (UInt64, UInt64, UInt64, UInt64) =
        (0x60EA_27EE_ADC0_B5D6, 0xC2B2_AE3D_27D4_EB4F, 0, 0x61C8_8646_80B5_83EB)
    private var length: UInt64 = 0
    /// Bytes of an unfinished 32-byte block, carried to the next `update`.
    private var pending: [UInt8] = []

    public init() { pending.reserveCapacity(32) }

    public mutating func update(_ buf: UnsafeRawBufferPointer) {
        let n = buf.count
        length &+= UInt64(n)
        var i = 0
        if !pending.isEmpty {
            while pending.count < 32 && i < n { pending.append(buf[i]); i += 1 }
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { block(UnsafeRawBufferPointer($0), at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while i + 32 <= n {
            block(buf, at: i)
            i += 32
        }
        while i < n { pending.append(buf[i]); i += 1 }
    }

    @inline(__always)
    private mutating func block(_ buf: UnsafeRawBufferPointer, at i: Int) {
        lanes.0 = Self.round(lanes.0, buf.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        lanes.1 = Self.round(lanes.1, buf.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
        lanes.2 = Self.round(lanes.2, buf.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
        lanes.3 = Self.round(lanes.3, buf.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let v = lane &+ word &* p2
        return ((v << 31) | (v >> 33)) &* p1
    }

    /// 16 lowercase hex digits.
    public func finalize() -> String {
        var h = Self.rotate(lanes.0, 1) &+ Self.rotate(lanes.1, 7) &+ Self.rotate(lanes.2, 12) &+ Self.rotate(lanes.3, 18)
        h ^= length
        for (k, byte) in pending.enumerated() {
            h = (h ^ (UInt64(byte) &* Self.p1 &+ UInt64(k))) &* Self.p2
            h = Self.rotate(h, 23)
        }
        h ^= h >> 33; h = h &* 0xFF51_AFD7_ED55_8CCD; h ^= h >> 33; h = h &* 0xC4CE_B9FE_1A85_EC53; h ^= h >> 33
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @inline(__always)
    private static func rotate(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
}
