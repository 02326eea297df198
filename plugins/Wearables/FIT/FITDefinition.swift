/// A definition message: what the data messages of one local message type hold — the global message
/// number, the byte order, and where each field lies. Looked up per field number through a table of
/// 256 slots, so reading a field is an index, not a search.
final class FITDefinition {
    let global: UInt16
    let bigEndian: Bool
    /// Bytes of a data message after its header: the fields and the developer fields (skipped).
    let length: Int
    private var offsets = [Int32](repeating: -1, count: 256)
    private var sizes = [UInt8](repeating: 0, count: 256)
    private var types = [UInt8](repeating: 0, count: 256)

    /// `fields` and `developer` are the definition's 3-byte entries (number, size, base type / developer index).
    init(global: UInt16, bigEndian: Bool, fields: UnsafeRawBufferPointer, developer: UnsafeRawBufferPointer?) {
        self.global = global
        self.bigEndian = bigEndian
        var at = 0
        for i in stride(from: 0, to: fields.count, by: 3) {
            let number = Int(fields[i]), size = fields[i + 1]
            if offsets[number] < 0 {
                offsets[number] = Int32(at)
                sizes[number] = size
                types[number] = fields[i + 2]
            }
            at += Int(size)
        }
        if let developer {
            for i in stride(from: 0, to: developer.count, by: 3) { at += Int(developer[i + 1]) }
        }
        length = at
    }

    func has(_ field: UInt8) -> Bool { offsets[Int(field)] >= 0 }

    /// A field's first element as a number (nil when absent, invalid, or not a number).
    @inline(__always)
    func number(_ field: UInt8, in data: UnsafeRawBufferPointer) -> Double? {
        let f = Int(field)
        let at = offsets[f]
        guard at >= 0 else { return nil }
        // A field whose size is no multiple of its type (some devices write them) is bytes, not a number.
        let type = FITBaseType.of(types[f]) ?? .bytes
        guard Int(sizes[f]) >= type.size, Int(sizes[f]) % type.size == 0 else { return nil }
        return type.number(data, at: Int(at), bigEndian: bigEndian)
    }

    /// A field's first byte, whatever its type (a bit field such as monitoring's activity type and intensity).
    func byte(_ field: UInt8, in data: UnsafeRawBufferPointer) -> UInt8? {
        let at = offsets[Int(field)]
        guard at >= 0, sizes[Int(field)] >= 1 else { return nil }
        return data[Int(at)]
    }
}
