import CLibCSV
import Foundation
import HealthPipeCore

/// Streams a delimited file through libcsv. Lines are split here and fed to libcsv one at a time,
/// so every row knows the line it started on and its raw text (for error messages and the
/// dead-letter file); quoted fields that span lines still parse, as libcsv keeps its state.
/// Memory is one read buffer plus the current row, however large the file.
public final class CSVRowReader {
    public struct Options: Sendable {
        public var delimiter: UInt8 = UInt8(ascii: ",")
        /// Longer lines are rejected whole (reported as one bad row) instead of buffered.
        public var maxLineBytes = 16 << 20
        public var chunkBytes = 1 << 20
        public init(delimiter: UInt8 = UInt8(ascii: ",")) { self.delimiter = delimiter }
    }

    public let path: String
    public let options: Options
    public private(set) var bytesRead: Int64 = 0
    public private(set) var size: Int64 = 0
    private var hasher = ContentHasher()
    private let fd: Int32

    // Current row, filled by libcsv's callbacks.
    fileprivate var arena: UnsafeMutablePointer<UInt8>
    fileprivate var arenaCapacity = 1 << 16
    fileprivate var arenaUsed = 0
    fileprivate var offsets: [Int] = []
    fileprivate var lengths: [Int] = []
    fileprivate var fieldCount = 0
    fileprivate var rowComplete = false
    /// Set while the file's last line, which has no line break, is being parsed.
    fileprivate var atUnterminatedEnd = false

    /// Opens a file (or `-` for standard input).
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        if path == "-" { fd = 0 } else {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw InputError(file: path, reason: "cannot open: \(String(cString: strerror(errno)))") }
            var st = stat()
            if fstat(fd, &st) == 0 {
                if (st.st_mode & S_IFMT) == S_IFDIR { close(fd); throw InputError(file: path, reason: "is a directory") }
                size = Int64(st.st_size)
            }
        }
        arena = .allocate(capacity: arenaCapacity)
        offsets = Array(repeating: 0, count: 64)
        lengths = Array(repeating: 0, count: 64)
    }

    deinit {
        if fd > 2 { close(fd) }
        arena.deallocate()
    }

    /// The content hash of everything read so far (the whole file once `forEachRow` returns).
    public var contentHash: String { hasher.finalize() }

    /// Calls `body` for every row. `progress` receives the bytes read per chunk.
    public func forEachRow(progress: (Int) -> Void = { _ in }, _ body: (inout CSVRow) throws -> Void) throws {
        var parser = csv_parser()
        guard csv_init(&parser, 0) == 0 else { throw InputError(file: path, reason: "libcsv could not start") }
        defer { csv_free(&parser) }
        csv_set_delim(&parser, options.delimiter)
        let me = Unmanaged.passUnretained(self).toOpaque()

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: options.chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        var pending = [UInt8]()       // a line that crosses a chunk boundary
        var raw = [UInt8]()           // the current row's original bytes (capped)
        var lineNo: Int64 = 0         // lines fed so far
        var rowStart: Int64 = 1
        var oversized = false         // skipping the rest of a line that is too long
        var pendingBytes = 0
        var first = true
        let rawCap = 64 << 10

        func deliver() throws {
            guard rowComplete else { return }
            rowComplete = false
            var row = CSVRow(reader: self, line: rowStart, raw: raw, unterminated: atUnterminatedEnd)
            try body(&row)
            fieldCount = 0
            arenaUsed = 0
            raw.removeAll(keepingCapacity: true)
        }

        func feed(_ p: UnsafeRawPointer, _ n: Int, endsLine: Bool) throws {
            if parser.pstate == 0 && fieldCount == 0 {  // ROW_NOT_BEGUN: a new row starts on this line
                rowStart = lineNo + 1
                raw.removeAll(keepingCapacity: true)
            }
            if raw.count < rawCap {
                raw.append(contentsOf: UnsafeRawBufferPointer(start: p, count: min(n, rawCap - raw.count)))
            }
            let done = csv_parse(&parser, p, n, csvFieldCallback, csvRowCallback, me)
            if done != n { throw InputError(file: path, line: lineNo + 1, reason: "CSV parser error: \(String(cString: csv_strerror(csv_error(&parser))))") }
            if endsLine { lineNo += 1 }
            try deliver()
        }

        func overlong() throws {
            // Report the line as one bad row, then reset libcsv so the next line parses cleanly.
            csv_free(&parser)
            _ = csv_init(&parser, 0)
            csv_set_delim(&parser, options.delimiter)
            fieldCount = 0
            arenaUsed = 0
            rowComplete = false
            var row = CSVRow(reader: self, line: lineNo + 1, raw: Array(raw.prefix(256)), overlong: true)
            try body(&row)
            raw.removeAll(keepingCapacity: true)
        }

        while true {
            let n = read(fd, buffer.baseAddress!, options.chunkBytes)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, line: lineNo + 1, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            var chunk = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: n)
            hasher.update(chunk)
            bytesRead += Int64(n)
            progress(n)
            if first {
                first = false
                if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk = UnsafeRawBufferPointer(rebasing: chunk[3...]) }
            }
            var start = 0
            let base = chunk.baseAddress!
            while start < chunk.count {
                let rest = chunk.count - start
                let nl = memchr(base + start, 0x0A, rest)
                let end = nl.map { UnsafeRawPointer($0) - base } ?? chunk.count  // index of '\n' or chunk end
                let hasNewline = nl != nil
                let len = end - start + (hasNewline ? 1 : 0)
                if oversized {
                    if hasNewline { oversized = false; lineNo += 1; try overlong() }
                } else if !pending.isEmpty || !hasNewline {
                    // Part of a line crossing chunks: gather it (bounded), feed once complete.
                    pendingBytes += len
                    if pendingBytes > options.maxLineBytes {
                        oversized = true
                        raw = Array(pending.prefix(256))
                        pending.removeAll(keepingCapacity: false)
                        pendingBytes = 0
                        if hasNewline { oversized = false; lineNo += 1; try overlong() }
                    } else {
                        pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: len))
                        if hasNewline {
                            let line = pending
                            pending.removeAll(keepingCapacity: true)
                            pendingBytes = 0
                            try line.withUnsafeBytes { try feed($0.baseAddress!, $0.count, endsLine: true) }
                        }
                    }
                } else {
                    try feed(base + start, len, endsLine: true)
                }
                start += len
            }
        }
        if oversized {
            try overlong()
        } else if !pending.isEmpty {
            atUnterminatedEnd = true
            let line = pending
            try line.withUnsafeBytes { try feed($0.baseAddress!, $0.count, endsLine: true) }
        }
        atUnterminatedEnd = true
        csv_fini(&parser, csvFieldCallback, csvRowCallback, me)
        try deliver()
    }

    fileprivate func appendField(_ p: UnsafeRawPointer?, _ n: Int) {
        if fieldCount == offsets.count {
            offsets.append(contentsOf: repeatElement(0, count: offsets.count))
            lengths.append(contentsOf: repeatElement(0, count: lengths.count))
        }
        if arenaUsed + n > arenaCapacity {
            var cap = arenaCapacity * 2
            while cap < arenaUsed + n { cap *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
            bigger.update(from: arena, count: arenaUsed)
            arena.deallocate()
            arena = bigger
            arenaCapacity = cap
        }
        if let p, n > 0 { (arena + arenaUsed).update(from: p.assumingMemoryBound(to: UInt8.self), count: n) }
        offsets[fieldCount] = arenaUsed
        lengths[fieldCount] = n
        arenaUsed += n
        fieldCount += 1
    }
}

private func csvFieldCallback(_ s: UnsafeMutableRawPointer?, _ n: Int, _ ctx: UnsafeMutableRawPointer?) {
    Unmanaged<CSVRowReader>.fromOpaque(ctx!).takeUnretainedValue().appendField(s, n)
}

private func csvRowCallback(_ term: Int32, _ ctx: UnsafeMutableRawPointer?) {
    Unmanaged<CSVRowReader>.fromOpaque(ctx!).takeUnretainedValue().rowComplete = true
}

/// One parsed row, valid only inside the `forEachRow` callback (its fields point into the reader).
public struct CSVRow {
    fileprivate unowned(unsafe) let reader: CSVRowReader
    /// 1-based line the row starts on.
    public let line: Int64
    fileprivate let rawBytes: [UInt8]
    /// The line was longer than the reader's limit and was not parsed.
    public let overlong: Bool

    /// The file ended inside this row (no final line break): it may be cut off.
    public let unterminated: Bool

    fileprivate init(reader: CSVRowReader, line: Int64, raw: [UInt8], overlong: Bool = false, unterminated: Bool = false) {
        self.reader = reader
        self.line = line
        self.rawBytes = raw
        self.overlong = overlong
        self.unterminated = unterminated
    }

    public var count: Int { overlong ? 0 : reader.fieldCount }

    /// Field `i` as bytes (empty when the row is shorter: ragged rows are normal in Clarity exports).
    @inline(__always)
    public func field(_ i: Int) -> UnsafeRawBufferPointer {
        guard i < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: reader.arena + reader.offsets[i], count: reader.lengths[i])
    }

    /// Field `i` with surrounding spaces removed.
    @inline(__always)
    public func trimmed(_ i: Int) -> UnsafeRawBufferPointer { ByteText.trim(field(i)) }

    public func isEmpty(_ i: Int) -> Bool { trimmed(i).isEmpty }

    public func string(_ i: Int) -> String { String(decoding: trimmed(i), as: UTF8.self) }

    public func strings() -> [String] { (0..<count).map { string($0) } }

    /// The row's original text (without the line break), for error reports.
    public var rawText: String {
        var b = rawBytes[...]
        while let last = b.last, last == 0x0A || last == 0x0D { b = b.dropLast() }
        return String(decoding: b, as: UTF8.self)
    }

    /// True if every field is empty (a blank or `,,,,` line).
    public var isBlank: Bool { (0..<count).allSatisfy { isEmpty($0) } }
}
