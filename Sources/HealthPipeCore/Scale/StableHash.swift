/// FNV-1a, 64-bit, over a text's UTF-8 bytes: the one hash that names partitioned outputs and record
/// ids, and — mixed by `fmix64` — decides which shard a file belongs to. It depends on nothing but the
/// bytes (no seed, no platform, no Swift version), so every machine of a cluster — and the Python
/// driver in examples/spark, which computes the same functions — agrees on it. Not cryptographic.
public enum StableHash {
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    public static func fnv1a64(_ text: String) -> UInt64 {
        var h = offsetBasis
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* prime }
        return h
    }

    /// Continues a hash over more bytes (a record id over several fields without joining them first).
    @inline(__always)
    public static func fnv1a64(_ bytes: some Sequence<UInt8>, from start: UInt64) -> UInt64 {
        var h = start
        for byte in bytes { h = (h ^ UInt64(byte)) &* prime }
        return h
    }

    /// MurmurHash3's 64-bit finalizer. FNV-1a's low bits depend only on the low bits of the bytes
    /// (ids that differ in one digit often share them), so `mod n` for n a power of two would split
    /// poorly; the finalizer spreads every input bit over every output bit.
    public static func fmix64(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    /// FNV-1a, 128-bit (offset basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13B): record
    /// ids, where 64 bits would collide somewhere in a cohort of billions of readings.
    public static func fnv1a128(_ bytes: some Sequence<UInt8>) -> UInt128 {
        var h = FNV128()
        for byte in bytes { h.add(byte) }
        return h.value
    }

    /// FNV-1a 128 fed byte by byte, in two 64-bit halves: the prime 2^88 + 0x13B makes the product
    /// `h·0x13B + (h << 88)`, a few 64-bit multiplies instead of a 128-bit one.
    public struct FNV128: Sendable {
        public var high: UInt64 = 0x6C62_272E_07BB_0142
        public var low: UInt64 = 0x62B8_2175_6295_C58D
        public init() {}

        @inline(__always)
        public mutating func add(_ byte: UInt8) {
            low ^= UInt64(byte)
            let (carry, product) = low.multipliedFullWidth(by: 0x13B)
            high = high &* 0x13B &+ carry &+ (low << 24)
            low = product
        }

        public var value: UInt128 { UInt128(high) << 64 | UInt128(low) }

        /// 32 lowercase hex digits.
        public var hex: String { StableHash.hex(high) + StableHash.hex(low) }
    }

    /// 32 lowercase hex digits.
    public static func hex128(_ v: UInt128) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }

    /// 16 lowercase hex digits.
    public static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
