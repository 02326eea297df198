/// SHA-256 (FIPS 180-4), streamed: the checksum of every partitioned output in its manifest line,
/// which anyone can check with `sha256sum`. Foundation on Linux has no CryptoKit, and the digest of
/// a few files per run is not worth a package.
public struct SHA256: Sendable {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var block: [UInt8] = []
    private var length: UInt64 = 0
    private var w = [UInt32](repeating: 0, count: 64)

    public init() { block.reserveCapacity(64) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var i = 0
        if !block.isEmpty {
            while block.count < 64, i < bytes.count { block.append(bytes[i]); i += 1 }
            guard block.count == 64 else { return }
            block.withUnsafeBytes { compress($0, at: 0) }
            block.removeAll(keepingCapacity: true)
        }
        while i + 64 <= bytes.count {
            compress(bytes, at: i)
            i += 64
        }
        while i < bytes.count { block.append(bytes[i]); i += 1 }
    }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest as 64 lowercase hex digits.
    public func finalize() -> String {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (copy.block.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        let keep = copy.length
        copy.update(tail)
        copy.length = keep
        return copy.h.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private mutating func compress(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        // Unchecked buffers: a digest runs over every byte of every output.
        w.withUnsafeMutableBufferPointer { w in
            Self.k.withUnsafeBufferPointer { k in
                let p = bytes.baseAddress! + offset
                for t in 0..<16 { w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self)) }
                var t = 16
                while t < 64 {
                    let a = w[t - 15], b = w[t - 2]
                    let s0 = (a >> 7 | a << 25) ^ (a >> 18 | a << 14) ^ (a >> 3)
                    let s1 = (b >> 17 | b << 15) ^ (b >> 19 | b << 13) ^ (b >> 10)
                    w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    t += 1
                }
                h.withUnsafeMutableBufferPointer { h in
                    var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
                    t = 0
                    while t < 64 {
                        let t1 = hh &+ ((e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                        let t2 = ((a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)) &+ ((a & b) ^ (a & c) ^ (b & c))
                        hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                        t += 1
                    }
                    h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
                }
            }
        }
    }
}
