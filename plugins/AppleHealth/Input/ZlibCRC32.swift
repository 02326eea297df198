import Foundation

/// zlib's crc32 (vectorised), found in the process: ZIPFoundation links libz but on Linux checks
/// entries with a byte-at-a-time Swift CRC that costs more than inflating. Nil if libz is absent.
enum ZlibCRC32 {
    typealias Function = @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt
    static let function: Function? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "crc32") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()

    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let f = function, let base = bytes.baseAddress else { return crc }
        var c = UInt(crc)
        var rest = UnsafeRawBufferPointer(start: base, count: bytes.count)
        while !rest.isEmpty {
            let n = min(rest.count, Int(UInt32.max))
            c = f(c, rest.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(n))
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
        return UInt32(truncatingIfNeeded: c)
    }
}
