import Foundation
import HealthPipeCore
import ZipReading

/// The bytes of the Health XML, from a plain file or from inside a zip (streamed by ZipArchive,
/// never unpacked to disk). A pipe or standard input works too: XML streams
/// through, a zip (which needs random access) is first copied to a temporary file.
final class ExportInput {
    let path: String
    let fileSize: Int64
    /// Bytes of XML to read: the file, or the entry's uncompressed size.
    let xmlSize: Int64
    /// The zip entry holding the XML, when the input is a zip.
    let entryName: String?
    /// The zip (a stream's temporary copy), also read by `SideFiles`: a pipe cannot be opened again.
    let archive: ZipArchive?
    private let entry: ZipEntry?
    private let plain: ByteInput?
    private var temporaryCopy: String?
    /// The XML was UTF-16 and is delivered as UTF-8 (its declaration must then say UTF-8).
    var transcoded: Bool { plain?.decodedEncoding != nil }

    init(path: String) throws {
        self.path = path
        let input = try ByteInput.open(path)
        guard ZipArchive.hasMagic(try input.peek(4)) else {
            // UTF-16 is decoded here, so libxml2 (and recovery, which restarts mid-stream) see UTF-8.
            try input.decodeUTF16IfMarked()
            try input.refuseUnlessText()
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
        let archive: ZipArchive
        let entry: ZipEntry?
        do {
            archive = try ZipArchive(path: zipPath)
            entry = try ExportLocator.healthEntry(in: archive)
        } catch {
            if let copy = temporaryCopy { unlink(copy) }
            throw InputError(file: path, reason: String(describing: error))
        }
        guard let entry else {
            if let copy = temporaryCopy { unlink(copy) }
            throw InputError(file: path, reason: "the zip holds no Apple Health XML (no entry starts a HealthData document)")
        }
        self.archive = archive
        self.entry = entry
        entryName = entry.path
        xmlSize = Int64(entry.uncompressedSize)
        fileSize = Int64(archive.fileSize)
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
        if let archive, let entry {
            do {
                try archive.read(entry, chunkSize: chunkSize) { bytes in
                    if StopRequest.isRequested { throw ReadInterrupted() }
                    return try body(bytes)
                }
            } catch let e as ZipError {
                throw InputError(file: path, reason: "cannot read \(entry.path) from the zip: \(e)")
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
