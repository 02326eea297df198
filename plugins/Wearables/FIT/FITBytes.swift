import HealthPipeCore

/// The bytes of a FIT input read in chunks (regular files, pipes and standard input alike), with the
/// window a message needs kept whole in one buffer; every byte read feeds the content hash.
final class FITBytes {
    private let input: ByteInput
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var exhausted = false
    /// Byte offset in the input of the next unread byte.
    private(set) var offset: Int64 = 0
    private(set) var hasher = ContentHasher()
    /// Called with the number of bytes of each chunk read (progress).
    var onRead: (Int) -> Void = { _ in }

    /// The largest message: a header, 255 fields and 255 developer fields of 255 bytes each.
    static let chunk = 1 << 18

    init(input: ByteInput) {
        self.input = input
        buffer = [UInt8](repeating: 0, count: Self.chunk)
    }

    var available: Int { end - start }

    /// True when `n` bytes are there to read; false at the end of the input.
    func ensure(_ n: Int) throws -> Bool {
        while end - start < n, !exhausted {
            if start > 0 {
                buffer.withUnsafeMutableBytes { b in
                    b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: end - start)
                }
                end -= start
                start = 0
            }
            let read = try buffer.withUnsafeMutableBytes { b in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: b[end...]))
            }
            if read == 0 { exhausted = true; break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[end..<(end + read)])) }
            end += read
            onRead(read)
        }
        return end - start >= n
    }

    /// The next `n` bytes (which `ensure` said are there), valid only inside `body`; not consumed.
    func peek<R>(_ n: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + n)])) }
    }

    /// Consumes `n` bytes, adding them to `crc`.
    func consume(_ n: Int, crc: inout FITCRC) {
        buffer.withUnsafeBytes { crc.add(UnsafeRawBufferPointer(rebasing: $0[start..<(start + n)])) }
        start += n
        offset += Int64(n)
    }

    /// Consumes up to `n` bytes that may not all be there (a damaged or cut file), feeding `crc`;
    /// returns how many there were.
    func skip(_ n: Int, crc: inout FITCRC) throws -> Int {
        var left = n
        while left > 0 {
            guard try ensure(1) else { break }
            let step = min(left, available)
            consume(step, crc: &crc)
            left -= step
        }
        return n - left
    }

    /// Up to `n` bytes from here as hex, for the quarantine (not consumed).
    func hex(_ n: Int) -> String {
        peek(min(n, available)) { FITBytes.hex($0) }
    }

    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
