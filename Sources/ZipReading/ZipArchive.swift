#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A zip opened for reading: its central directory (ZIP64 included) and, per entry, a bounded
/// streaming read (ZipArchive+Read.swift). Every length the file states is checked against the file
/// before it is used, so a truncated or crafted zip ends in a `ZipError`, never in a loop or a
/// read past the entry (ZIPFoundation 0.9.20 loops forever on a deflate stream cut short).
public final class ZipArchive: @unchecked Sendable {
    public let path: String
    /// Entries in central-directory order.
    public let entries: [ZipEntry]
    let fd: Int32
    public let fileSize: UInt64

    /// A central directory larger than this is refused (a real export's is a few MiB).
    static let maxDirectoryBytes: UInt64 = 256 << 20

    public init(path: String) throws {
        self.path = path
        // A zip is read at random: a stream cannot be. `-` (standard input to every HealthPipe input) is
        // said so instead of "no such file"; O_NONBLOCK: a FIFO without a writer must not hang the open.
        guard path != "-" else { throw ZipError(.unreadable, Self.notAFile("standard input is a stream")) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ZipError(.unreadable, "cannot open the zip (\(String(cString: strerror(errno))))") }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ZipError(.unreadable, Self.notAFile("it is a pipe or device, not a regular file"))
        }
        self.fd = fd
        fileSize = UInt64(st.st_size)
        do { entries = try Self.readDirectory(fd: fd, fileSize: fileSize) } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    private static func notAFile(_ what: String) -> String {
        "\(what): a zip is read at random, which a stream cannot be (save it to a file first)"
    }

    /// The first entry with this exact path.
    public subscript(path: String) -> ZipEntry? { entries.first { $0.path == path } }

    /// True when the bytes start a zip (a local file header).
    public static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    // MARK: - Central directory

    private static func readDirectory(fd: Int32, fileSize: UInt64) throws -> [ZipEntry] {
        guard fileSize >= 22 else { throw ZipError.truncated("\(fileSize) bytes is too short for a zip") }
        let tailLength = min(fileSize, 22 + 65_535)
        let tail = try readExactly(fd: fd, at: fileSize - tailLength, count: Int(tailLength))
        guard let eocd = lastEndRecord(in: tail) else {
            throw ZipError.truncated("its end (the central directory) is missing")
        }
        let eocdOffset = fileSize - tailLength + UInt64(eocd)
        var count = UInt64(tail.le16(eocd + 10))
        var size = UInt64(tail.le32(eocd + 12))
        var offset = UInt64(tail.le32(eocd + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF, eocdOffset >= 20 {
            let locator = try readExactly(fd: fd, at: eocdOffset - 20, count: 20)
            if locator.le32(0) == 0x0706_4B50 {
                let zip64Offset = locator.le64(8)
                guard zip64Offset <= eocdOffset, eocdOffset - zip64Offset >= 56 else {
                    throw ZipError.corrupt("its ZIP64 end record points outside the file")
                }
                let record = try readExactly(fd: fd, at: zip64Offset, count: 56)
                guard record.le32(0) == 0x0606_4B50 else { throw ZipError.corrupt("its ZIP64 end record is missing") }
                count = record.le64(32)
                size = record.le64(40)
                offset = record.le64(48)
            }
        }
        guard offset <= fileSize, size <= fileSize - offset else {
            throw ZipError.truncated("its central directory (\(size) bytes at \(offset)) lies beyond the file's \(fileSize) bytes")
        }
        guard size <= maxDirectoryBytes else { throw ZipError.corrupt("its central directory claims \(size >> 20) MiB") }
        guard count <= size / 46 else { throw ZipError.corrupt("its directory claims \(count) entries in \(size) bytes") }
        let directory = try readExactly(fd: fd, at: offset, count: Int(size))
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        var at = 0
        for index in 0..<Int(count) {
            guard at + 46 <= directory.count, directory.le32(at) == 0x0201_4B50 else {
                throw ZipError.corrupt("entry \(index + 1) of its central directory is damaged")
            }
            let nameLength = Int(directory.le16(at + 28)), extraLength = Int(directory.le16(at + 30))
            let commentLength = Int(directory.le16(at + 32))
            let end = at + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw ZipError.corrupt("entry \(index + 1) of its central directory is cut short") }
            let flags = directory.le16(at + 8)
            var compressed = UInt64(directory.le32(at + 20)), uncompressed = UInt64(directory.le32(at + 24))
            var local = UInt64(directory.le32(at + 42))
            let nameBytes = directory[(at + 46)..<(at + 46 + nameLength)]
            ZIP64Extra.apply(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)],
                             uncompressed: &uncompressed, compressed: &compressed, localOffset: &local)
            let name = decodeName(nameBytes)
            entries.append(ZipEntry(path: name, isDirectory: name.hasSuffix("/"), method: directory.le16(at + 10), flags: flags,
                                    crc32: directory.le32(at + 16), compressedSize: compressed,
                                    uncompressedSize: uncompressed, localHeaderOffset: local))
            at = end
        }
        return entries
    }

    /// Offset in `tail` of the last end-of-central-directory record whose comment fits.
    private static func lastEndRecord(in tail: [UInt8]) -> Int? {
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50, tail.le32(i) == 0x0605_4B50, i + 22 + Int(tail.le16(i + 20)) <= tail.count { return i }
            i -= 1
        }
        return nil
    }

    private static func decodeName(_ bytes: ArraySlice<UInt8>) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        // Not UTF-8: old DOS-era tools; Latin-1 keeps every byte visible (names are never trusted).
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    // MARK: - Raw reads

    static func readExactly(fd: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { readFully(fd: fd, into: $0, at: offset) }
        guard got == count else { throw ZipError.truncated("\(count) bytes at \(offset) are past its end") }
        return bytes
    }

    /// pread until `buffer` is full or the file ends; -1 on an I/O error.
    static func readFully(fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// The ZIP64 extended-information extra field (id 1): the 64-bit values of whichever sizes and
/// offset the fixed fields mark as 0xFFFFFFFF, in that order.
enum ZIP64Extra {
    static func apply(_ extra: ArraySlice<UInt8>, uncompressed: inout UInt64, compressed: inout UInt64, localOffset: inout UInt64) {
        var at = extra.startIndex
        while at + 4 <= extra.endIndex {
            let id = extra.le16(at), length = Int(extra.le16(at + 2))
            let body = at + 4
            guard body + length <= extra.endIndex else { return }
            if id == 1 {
                var field = body
                for target in [0, 1, 2] {
                    let marked = target == 0 ? uncompressed == 0xFFFF_FFFF : target == 1 ? compressed == 0xFFFF_FFFF
                        : localOffset == 0xFFFF_FFFF
                    guard marked else { continue }
                    guard field + 8 <= body + length else { return }
                    let value = extra.le64(field)
                    if target == 0 { uncompressed = value } else if target == 1 { compressed = value } else { localOffset = value }
                    field += 8
                }
                return
            }
            at = body + length
        }
    }
}

extension Collection where Element == UInt8, Index == Int {
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
    func le64(_ i: Int) -> UInt64 { UInt64(le32(i)) | UInt64(le32(i + 4)) << 32 }
}
