import Foundation
import HealthPipeCore
import ZIPFoundation

/// The bytes of the Health XML, from a plain file or from inside a zip (streamed by ZIPFoundation's
/// extract-with-consumer, never unpacked to disk). A pipe or standard input works too: XML streams
/// through, a zip (which needs random access) is first copied to a temporary file.
final class ExportInput {
    let path: String
    let fileSize: Int64
    /// Bytes of XML to read: the file, or the entry's uncompressed size.
    let xmlSize: Int64
    /// The zip entry holding the XML, when the input is a zip.
    let entryName: String?
    private let archive: Archive?
    private let entry: Entry?
    private let plain: ByteInput?
    private var temporaryCopy: String?
    /// The XML was UTF-16 and is delivered as UTF-8 (its declaration must then say UTF-8).
    var transcoded: Bool { plain?.decodedEncoding != nil }

    init(path: String) throws {
        self.path = path
        let input = try ByteInput.open(path)
        guard try input.peek(4).starts(with: ExportLocator.zipMagic) else {
            // UTF-16 is decoded here, so libxml2 (and recovery, which restarts mid-stream) see UTF-8.
            try input.decodeUTF16IfMarked()
            plain = input
            archive = nil
            entry = nil
            entryName = nil
            fileSize = input.size
            xmlSize = input.size
            return
        }
        plain = nil
        var zipPath = path
        if input.kind == .stream {
            zipPath = try input.copyToTemporaryFile()
            temporaryCopy = zipPath
        }
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read) } catch {
            if let copy = temporaryCopy { unlink(copy) }
            throw InputError(file: path, reason: ZipProblem.describe(error, path: zipPath))
        }
        let entry: Entry?
        do { entry = try ExportLocator.healthEntry(in: archive) } catch {
            if let copy = temporaryCopy { unlink(copy) }
            throw InputError(file: path, reason: ZipProblem.describe(error, path: zipPath))
        }
        guard let entry else {
            if let copy = temporaryCopy { unlink(copy) }
            throw InputError(file: path, reason: "the zip holds no Apple Health XML (no entry starts a HealthData document)")
        }
        self.archive = archive
        self.entry = entry
        entryName = entry.path
        xmlSize = Int64(entry.uncompressedSize)
        var st = stat()
        fileSize = stat(zipPath, &st) == 0 ? Int64(st.st_size) : 0
    }

    deinit { if let copy = temporaryCopy { unlink(copy) } }

    /// Calls `body` with each chunk until the input ends or `body` returns false. The chunks are
    /// read (and inflated, and hashed into `hasher`) on a reader thread, one step ahead of `body`.
    func readAhead(chunkSize: Int, hasher: HashBox, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        let pipe = ChunkPipe()
        let reader = UncheckedInput(input: self)
        let thread = Thread {
            do {
                try reader.input.read(chunkSize: chunkSize) { chunk in
                    hasher.update(chunk)
                    return pipe.put(chunk)
                }
                pipe.finish(nil)
            } catch {
                pipe.finish(error)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        var more = true
        defer { if more { pipe.cancel() } }
        while more, let chunk = try pipe.take() {
            more = try chunk.withUnsafeBytes { try body($0) }
            pipe.recycle(chunk)
        }
        if !more { pipe.cancel() }
        more = false
    }

    /// Calls `body` with each chunk until the input ends or `body` returns false.
    func read(chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        struct Stop: Error {}
        if let archive, let entry {
            // The CRC is checked here with zlib's crc32 (see ZlibCRC32), not ZIPFoundation's.
            let checkCRC = ZlibCRC32.function != nil
            var crc: UInt32 = 0
            do {
                _ = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: checkCRC) { data in
                    if StopRequest.isRequested { throw ReadInterrupted() }
                    let more = try data.withUnsafeBytes { bytes in
                        if checkCRC { crc = ZlibCRC32.update(crc, bytes) }
                        return try body(bytes)
                    }
                    if !more { throw Stop() }
                }
                if checkCRC, crc != entry.checksum {
                    throw InputError(file: path, reason: "\(entry.path) in the zip fails its CRC check: the archive is corrupt")
                }
            } catch is Stop {
            } catch let e as InputError { throw e
            } catch let e as StageFailure { throw e
            } catch let e as ReadInterrupted { throw e
            } catch {
                throw InputError(file: path, reason: "cannot read \(entry.path) from the zip: " + ZipProblem.describe(error, path: path))
            }
            return
        }
        guard let plain else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try plain.read(into: buffer)
            if n == 0 { return }
            if try !body(UnsafeRawBufferPointer(rebasing: buffer[..<n])) { return }
        }
    }
}

/// Lets the reader thread use the input (only it touches the archive while reading).
struct UncheckedInput: @unchecked Sendable {
    let input: ExportInput
}

/// The content hash, updated on the reader thread and read after it finished.
final class HashBox: @unchecked Sendable {
    private var hasher = ContentHasher()
    func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bytes) }
    var hex: String { hasher.finalize() }
}
