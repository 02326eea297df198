import Foundation
import Synchronization

/// One input opened for reading: a regular file, or a stream (a FIFO, `<(…)`, standard input as
/// `-`, a character device). Every failure names the operating system's reason; every read honours
/// Ctrl-C / SIGTERM (streams are polled, so a silent pipe cannot hold a stop up). Bytes read ahead
/// by `peek` (format detection, a separator guess) are delivered again by `read`, so a stream that
/// cannot be read twice is still read whole. UTF-16 with a byte-order mark can be decoded to UTF-8.
public final class ByteInput: @unchecked Sendable {
    public enum Kind: Sendable { case regularFile, stream }

    public let path: String
    public let kind: Kind
    /// Size in bytes of a regular file (0 for a stream).
    public private(set) var size: Int64
    /// "UTF-16LE" or "UTF-16BE" once `decodeUTF16IfMarked` found a byte-order mark.
    public private(set) var decodedEncoding: String?

    private var fd: Int32
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var endOfInput = false
    private var decoder: UTF16Transcoder?
    /// Bytes at the start of the file that rewinding skips (a UTF-16 byte-order mark).
    private var skipOnRewind: Int64 = 0
    private var scratch: [UInt8] = []
    /// The bytes of an input that lives in memory (`provide`), for rewinding.
    private var memory: [UInt8]?
    /// The most one `read` returns (`provide(…, readSize:)`): a test delivers bytes as a slow pipe may.
    private var readSize = Int.max
    /// How long a stream read waits before looking at the stop flag again.
    static let pollMilliseconds: Int32 = 200

    private init(path: String, fd: Int32, kind: Kind, size: Int64) {
        self.path = path
        self.fd = fd
        self.kind = kind
        self.size = size
    }

    deinit { if fd > 2 { Foundation.close(fd) } }

    /// Opens `path` (`-` is standard input). A stream that format detection already started to read
    /// is taken over with the bytes it read, never opened a second time.
    public static func open(_ path: String) throws -> ByteInput {
        if let handed = InputHandoff.take(path) { return handed }
        if path == "-" { return try describe(fd: 0, path: path) }
        // O_NONBLOCK: opening a FIFO without a writer must not hang here; reads poll instead.
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw InputError(file: path, reason: "cannot open: \(OSError.reason(errno))") }
        do { return try describe(fd: fd, path: path) } catch {
            Foundation.close(fd)
            throw error
        }
    }

    private static func describe(fd: Int32, path: String) throws -> ByteInput {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError(file: path, reason: "cannot read: \(OSError.reason(errno))") }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            throw InputError(file: path, reason: "is a directory, not a file")
        case S_IFREG:
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK != 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
            return ByteInput(path: path, fd: fd, kind: .regularFile, size: Int64(st.st_size))
        default:
            return ByteInput(path: path, fd: fd, kind: .stream, size: 0)
        }
    }

    /// Makes the next `open(path)` read `bytes` instead of the file system: for tests and fuzzing,
    /// which drive real sources through their real input path without touching the disk. `readSize`
    /// caps each `read` (1: one byte at a time, so every read boundary a source can meet is met).
    public static func provide(_ bytes: [UInt8], as path: String, readSize: Int = .max) {
        let input = ByteInput(path: path, fd: -1, kind: .regularFile, size: Int64(bytes.count))
        input.readSize = max(1, readSize)
        input.memory = bytes
        input.pending = bytes
        input.endOfInput = true
        InputHandoff.deposit(input)
    }

    /// The first `count` bytes not yet read (fewer at the end of the input), without consuming them.
    public func peek(_ count: Int) throws -> [UInt8] {
        while pending.count - pendingStart < count, !endOfInput { try fill(max(count - (pending.count - pendingStart), 64 << 10)) }
        return Array(pending[pendingStart..<min(pending.count, pendingStart + count)])
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input. Throws `ReadInterrupted` when
    /// the user asked to stop, `InputError` (with the OS reason) when reading fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if pendingStart == pending.count, decoder == nil, !endOfInput {
            return try readRaw(into: buffer)  // the common case: straight into the caller's buffer
        }
        while pendingStart == pending.count, !endOfInput { try fill(buffer.count) }
        let n = min(buffer.count, pending.count - pendingStart, readSize)
        if n == 0 { return 0 }
        pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: n) }
        pendingStart += n
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        return n
    }

    /// Decodes UTF-16 to UTF-8 from here on when the input starts with a UTF-16 byte-order mark
    /// (the mark itself is dropped). Call before the first `read`.
    public func decodeUTF16IfMarked() throws {
        guard decoder == nil, let bigEndian = UTF16Transcoder.byteOrder(of: try peek(4)) else { return }
        var transcoder = UTF16Transcoder(bigEndian: bigEndian)
        let raw = pending[(pendingStart + 2)...]
        var decoded: [UInt8] = []
        transcoder.transcode(raw, into: &decoded)
        if endOfInput { transcoder.finish(into: &decoded) }
        pending = decoded
        pendingStart = 0
        decoder = transcoder
        decodedEncoding = bigEndian ? "UTF-16BE" : "UTF-16LE"
        skipOnRewind = 2
    }

    /// Refuses an input a text format was told to read (`--format`) when its first bytes show it is
    /// not text: NUL bytes, UTF-16 without a mark, UTF-32 — the rule format detection applies
    /// (`FileSniff`). Without it `/dev/zero` was read as one endless line. Call after `decodeUTF16IfMarked`.
    public func refuseUnlessText() throws {
        let sniff = FileSniff(path: path, prefix: try peek(4096), isRegularFile: kind == .regularFile)
        if let problem = sniff.encodingProblem { throw InputError(file: path, reason: problem) }
        if sniff.looksBinary { throw InputError(file: path, reason: FileSniff.binaryData) }
    }

    /// Starts again from the first byte (regular files only).
    public func rewind() throws {
        guard kind == .regularFile else {
            throw InputError(file: path, reason: "cannot be read twice (a pipe or device); save it to a file first")
        }
        if let memory {
            pending = Array(memory.dropFirst(Int(skipOnRewind)))
            pendingStart = 0
            if let d = decoder {
                var fresh = UTF16Transcoder(bigEndian: d.bigEndian)
                var decoded: [UInt8] = []
                fresh.transcode(pending, into: &decoded)
                fresh.finish(into: &decoded)
                pending = decoded
            }
            return
        }
        guard lseek(fd, off_t(skipOnRewind), SEEK_SET) >= 0 else {
            throw InputError(file: path, reason: "cannot rewind: \(OSError.reason(errno))")
        }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        endOfInput = false
        if let d = decoder { decoder = UTF16Transcoder(bigEndian: d.bigEndian) }
    }

    /// Text readers give up on a line still without its end after this many bytes: no format's rows
    /// are that long, and an endless one (a device, a stream with no line breaks) is never done.
    public static let maxLineRunBytes: Int64 = 64 << 20

    /// Why a text input is given up on at line `line` (nil: not known, as in a copy).
    public static func endlessLine(_ path: String, line: Int64?) -> InputError {
        InputError(file: path, reason: (line.map { "line \($0)" } ?? "a line") + " runs past \(maxLineRunBytes >> 20) MiB without a line end: "
                   + "not a file of rows (binary data, or a stream without line breaks); the rest is not read")
    }

    /// A stream copied to an unlinked temporary file, so it can be read twice; a regular file as is.
    /// The copy holds the bytes as `read` delivers them (UTF-16 already decoded). A text reader
    /// (`text: true`) has the copy stop at a line longer than `maxLineRunBytes`: an endless stream
    /// without line breaks would otherwise be copied until the disk is full.
    public func seekable(text: Bool = false) throws -> ByteInput {
        guard kind == .stream else { return self }
        let (tempFD, _) = try Self.temporaryFile(keepName: false)
        let copy = ByteInput(path: path, fd: tempFD, kind: .regularFile, size: 0)
        try copyRest(to: tempFD, text: text)
        guard lseek(tempFD, 0, SEEK_SET) >= 0 else { throw InputError(file: path, reason: "cannot rewind a temporary copy") }
        var st = stat()
        if fstat(tempFD, &st) == 0 { copy.size = Int64(st.st_size) }
        return copy
    }

    /// Copies the rest of the input to a named temporary file (for readers that need a path, such as a
    /// zip archive); the caller removes it.
    public func copyToTemporaryFile() throws -> String {
        let (tempFD, name) = try Self.temporaryFile(keepName: true)
        defer { Foundation.close(tempFD) }
        do { try copyRest(to: tempFD) } catch {
            unlink(name)
            throw error
        }
        return name
    }

    private func copyRest(to out: Int32, text: Bool = false) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var run: Int64 = 0  // bytes since the last line end (text only)
        while true {
            let n = try read(into: buffer)
            if n == 0 { return }
            if text {
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<n])
                if let end = bytes.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) { run = Int64(n - end - 1) } else { run += Int64(n) }
                if run > Self.maxLineRunBytes { throw Self.endlessLine(path, line: nil) }
            }
            var done = 0
            while done < n {
                let w = write(out, buffer.baseAddress! + done, n - done)
                if w < 0, errno == EINTR { continue }
                guard w > 0 else {
                    throw InputError(file: path, reason: "cannot copy the stream to a temporary file: \(OSError.reason(errno))")
                }
                done += w
            }
        }
    }

    private static func temporaryFile(keepName: Bool) throws -> (Int32, String) {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        switch TemporaryFile.create(prefix: dir + "/healthpipe-stream-") {
        case .failure(let e): throw InputError(file: dir, reason: "cannot create a temporary file: \(e.reason)")
        case .success(let (fd, name)):
            if !keepName { unlink(name) }
            return (fd, name)
        }
    }

    /// Reads more into `pending` (decoded when a decoder is set); sets `endOfInput` at the end.
    private func fill(_ want: Int) throws {
        let count = max(want, 4096)
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        let n = try scratch.withUnsafeMutableBytes { try readRaw(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count])) }
        if pendingStart > 0, pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        if n == 0 {
            endOfInput = true
            decoder?.finish(into: &pending)
            return
        }
        if decoder != nil { decoder!.transcode(scratch[..<n], into: &pending) } else { pending.append(contentsOf: scratch[..<n]) }
    }

    private func readRaw(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if fd < 0 {  // in memory: everything is already pending
            endOfInput = true
            return 0
        }
        while true {
            if StopRequest.isRequested { throw ReadInterrupted() }
            if kind == .stream {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, Self.pollMilliseconds)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            }
            let n = Foundation.read(fd, buffer.baseAddress!, buffer.count)
            if n >= 0 {
                if n == 0 { endOfInput = true }
                return n
            }
            if errno == EINTR || errno == EAGAIN { continue }
            throw InputError(file: path, reason: "read failed: \(OSError.reason(errno))")
        }
    }
}

/// Streams that format detection opened and began to read, waiting for their source: a FIFO or
/// standard input can be opened and read only once, so the source takes over the same descriptor
/// and the bytes detection already consumed.
enum InputHandoff {
    private static let waiting = Mutex<[String: ByteInput]>([:])

    static func deposit(_ input: ByteInput) { waiting.withLock { $0[input.path] = input } }
    static func take(_ path: String) -> ByteInput? { waiting.withLock { $0.removeValue(forKey: path) } }
}
