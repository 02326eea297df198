/// The FIT CRC-16 (the SDK's nibble-table algorithm): over a 14-byte header's first 12 bytes, and
/// over a file's header and data (the two bytes after the data).
struct FITCRC {
    private(set) var value: UInt16 = 0
    private static let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                                          0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]

    @inline(__always)
    mutating func add(_ byte: UInt8) {
        var tmp = Self.table[Int(value & 0xF)]
        value = (value >> 4) & 0x0FFF
        value = value ^ tmp ^ Self.table[Int(byte & 0xF)]
        tmp = Self.table[Int(value & 0xF)]
        value = (value >> 4) & 0x0FFF
        value = value ^ tmp ^ Self.table[Int((byte >> 4) & 0xF)]
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) { for b in bytes { add(b) } }
}
