import CZlibInflate
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ZipArchive {
    /// Streams an entry's bytes to `body` in chunks of up to `chunkSize`, until the entry ends or
    /// `body` returns false. Input is bounded by the entry's compressed size and output by its
    /// uncompressed size; a stream that ends early, runs long or fails its CRC throws `ZipError`
    /// (the CRC is checked when the whole entry was read and `checkCRC` is true).
    public func read(_ entry: ZipEntry, chunkSize: Int = 256 << 10, checkCRC: Bool = true,
                     _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        guard entry.flags & 1 == 0 else { throw ZipError(.unsupported, "\(entry.path) in the zip is encrypted") }
        let dataOffset = try dataStart(of: entry)
        guard dataOffset <= fileSize, entry.compressedSize <= fileSize - dataOffset else {
            throw ZipError.truncated("\(entry.path) needs \(entry.compressedSize) bytes the file does not have")
        }
        var crc: UInt = 0
        let whole: Bool
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw ZipError.corrupt("\(entry.path) is stored uncompressed, yet its two sizes differ")
            }
            whole = try copyStored(entry, from: dataOffset, chunkSize: chunkSize, crc: &crc, body)
        case 8:
            whole = try inflate(entry, from: dataOffset, chunkSize: chunkSize, crc: &crc, body)
        default:
            throw ZipError(.unsupported, "\(entry.path) uses compression method \(entry.method) (only stored and deflate are read)")
        }
        if whole, checkCRC, UInt32(truncatingIfNeeded: crc) != entry.crc32 {
            throw ZipError.corrupt("\(entry.path) fails its CRC check")
        }
    }

    /// Up to `limit` bytes from the start of an entry (no CRC check: the entry is not read whole).
    public func prefix(of entry: ZipEntry, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try read(entry, chunkSize: min(max(limit, 1), 64 << 10), checkCRC: false) { chunk in
            bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
            return bytes.count < limit
        }
        return bytes
    }

    /// The whole entry, refused when it says it inflates to more than `limit` bytes.
    public func contents(of entry: ZipEntry, limit: UInt64) throws -> [UInt8] {
        guard entry.uncompressedSize <= limit else {
            throw ZipError(.unsupported, "\(entry.path) inflates to \(entry.uncompressedSize >> 20) MiB, over the \(limit >> 20) MiB read whole")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        try read(entry) { chunk in
            bytes.append(contentsOf: chunk)
            return true
        }
        return bytes
    }

    /// Where the entry's data starts: after its local header, whose name and extra lengths may
    /// differ from the central directory's.
    private func dataStart(of entry: ZipEntry) throws -> UInt64 {
        guard entry.localHeaderOffset <= fileSize, fileSize - entry.localHeaderOffset >= 30 else {
            throw ZipError.truncated("the local header of \(entry.path) lies beyond the file")
        }
        let header = try Self.readExactly(fd: fd, at: entry.localHeaderOffset, count: 30)
        guard header.le32(0) == 0x0403_4B50 else { throw ZipError.corrupt("the local header of \(entry.path) is damaged") }
        return entry.localHeaderOffset + 30 + UInt64(header.le16(26)) + UInt64(header.le16(28))
    }

    private func copyStored(_ entry: ZipEntry, from offset: UInt64, chunkSize: Int, crc: inout UInt,
                            _ body: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < entry.compressedSize {
            let want = Int(min(UInt64(buffer.count), entry.compressedSize - done))
            let got = Self.readFully(fd: fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: offset + done)
            guard got == want else { throw ZipError.truncated("\(entry.path) ends before its \(entry.compressedSize) bytes") }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<got])
            crc = Self.crc(crc, chunk)
            done += UInt64(got)
            if try !body(chunk) { return false }
        }
        return true
    }

    private func inflate(_ entry: ZipEntry, from offset: UInt64, chunkSize: Int, crc: inout UInt,
                         _ body: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { input.deallocate(); output.deallocate() }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError(.unreadable, "zlib could not start inflating \(entry.path)")
        }
        defer { inflateEnd(&stream) }
        var consumed: UInt64 = 0, produced: UInt64 = 0
        while true {
            if stream.avail_in == 0 {
                guard consumed < entry.compressedSize else {
                    throw ZipError.truncated("the compressed data of \(entry.path) ends before its deflate stream does")
                }
                let want = Int(min(UInt64(input.count), entry.compressedSize - consumed))
                let got = Self.readFully(fd: fd, into: UnsafeMutableRawBufferPointer(rebasing: input[..<want]), at: offset + consumed)
                guard got == want else { throw ZipError.truncated("\(entry.path) ends before its \(entry.compressedSize) compressed bytes") }
                consumed += UInt64(got)
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(got)
            }
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = CZlibInflate.inflate(&stream, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_in == 0) else {
                throw ZipError.corrupt("the compressed data of \(entry.path) cannot be inflated (zlib status \(status))")
            }
            let count = output.count - Int(stream.avail_out)
            produced += UInt64(count)
            guard produced <= entry.uncompressedSize else {
                throw ZipError.corrupt("\(entry.path) inflates to more than the \(entry.uncompressedSize) bytes its directory states")
            }
            if count > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: output[..<count])
                crc = Self.crc(crc, chunk)
                if try !body(chunk) { return false }
            }
            if status == Z_STREAM_END { break }
        }
        guard produced == entry.uncompressedSize else {
            throw ZipError.corrupt("\(entry.path) inflates to \(produced) bytes, not the \(entry.uncompressedSize) its directory states")
        }
        return true
    }

    /// zlib's CRC-32 (the zip checksum), over any length.
    static func crc(_ crc: UInt, _ bytes: UnsafeRawBufferPointer) -> UInt {
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
        var c = crc, left = bytes.count
        while left > 0 {
            let n = min(left, Int(UInt32.max))
            c = crc32(c, base, uInt(n))
            base += n
            left -= n
        }
        return c
    }
}
