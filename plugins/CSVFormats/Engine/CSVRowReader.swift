import CLibCSV
import Foundation
import HealthPipeCore

/// Streams a delimited file through libcsv. Lines (ended by LF, CRLF or a lone CR) are split here
/// and fed to libcsv one at a time, so every row knows the line it started on and its raw text (for
/// error messages and the dead-letter file); quoted fields that span lines still parse, as libcsv
/// keeps its state. A quote that never closes cannot swallow the rest of the file: when a row is
/// still open at a line that parses as a complete row on its own, the open span is reported as one
/// bad row and reading resumes at that line. Memory is one read buffer plus the current row
/// (both bounded), however large or hostile the file.
public final class CSVRowReader {
    public struct Options: Sendable {
        public var delimiter: UInt8 = UInt8(ascii: ",")
        /// Longer lines are rejected whole (reported as one bad row) instead of buffered.
        public var maxLineBytes = 1 << 20
        /// A line still without its end after this many bytes refuses the rest of the input: no
        /// format's rows are that long, and an endless one (a device, a stream with no line breaks)
        /// would otherwise be read for ever.
        public var maxEndlessLineBytes = ByteInput.maxLineRunBytes
        /// A row spanning lines (an open quote) is cut off and reported when it grows past this.
        public var maxRowBytes = 1 << 20
        public var chunkBytes = 1 << 20
        public init(delimiter: UInt8 = UInt8(ascii: ",")) { self.delimiter = delimiter }
    }

    public let path: String
    public let options: Options
    public private(set) var bytesRead: Int64 = 0
    public var size: Int64 { input.size }
    private var hasher = ContentHasher()
    private let input: ByteInput

    // Current row, filled by libcsv's callbacks. One reader is used by one thread only, so the
    // per-field dynamic exclusivity checks (about 15 % of a Clarity import's parse) are turned off.
    @exclusivity(unchecked) fileprivate var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) fileprivate var arenaCapacity = 1 << 16
    @exclusivity(unchecked) fileprivate var arenaUsed = 0
    /// Field i starts at `spans[2i]` in the arena and is `spans[2i + 1]` bytes long (raw storage:
    /// an array here cost a uniqueness check per field).
    @exclusivity(unchecked) fileprivate var spans: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) fileprivate var spanCapacity = 64
    @exclusivity(unchecked) fileprivate var fieldCount = 0
    @exclusivity(unchecked) fileprivate var rowComplete = false
    /// Set while the file's last line, which has no line break, is being parsed.
    @exclusivity(unchecked) fileprivate var atUnterminatedEnd = false

    // The row loop's state, kept here rather than in locals its nested functions capture: captured
    // locals were boxed and checked for exclusive access on every line, and the row's raw text was
    // an array allocated per row.
    private let parser: UnsafeMutablePointer<csv_parser>
    /// The current row's original bytes, capped at `rawCapacity` (error reports and the quarantine).
    @exclusivity(unchecked) fileprivate var raw: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) fileprivate var rawCount = 0
    private static let rawCapacity = EchoText.rawLimit + 64
    @exclusivity(unchecked) private var lineNo: Int64 = 0  // lines fed so far
    @exclusivity(unchecked) private var rowStart: Int64 = 1
    @exclusivity(unchecked) private var rowBytes = 0       // bytes of the current row so far
    @exclusivity(unchecked) private var lastWidth = 0      // fields of the last complete row
    private let probe: RowProbe

    /// Opens a file (or `-` for standard input), decoding UTF-16 with a byte-order mark.
    public convenience init(path: String, options: Options = Options()) throws {
        let input = try ByteInput.open(path)
        try input.decodeUTF16IfMarked()
        try input.refuseUnlessText()
        self.init(input: input, options: options)
    }

    /// Reads an input that is already open (and may have been peeked at).
    public init(input: ByteInput, options: Options = Options()) {
        self.input = input
        self.path = input.path
        self.options = options
        arena = .allocate(capacity: arenaCapacity)
        spans = .allocate(capacity: 2 * 64)
        raw = .allocate(capacity: Self.rawCapacity)
        parser = .allocate(capacity: 1)
        parser.initialize(to: csv_parser())
        probe = RowProbe(delimiter: options.delimiter)
    }

    deinit {
        arena.deallocate()
        spans.deallocate()
        raw.deallocate()
        parser.deallocate()
    }

    /// The content hash of everything read so far (the whole file once `forEachRow` returns).
    public var contentHash: String { hasher.finalize() }

    /// Calls `body` for every row. `progress` receives the bytes read per chunk. Throws
    /// `ReadInterrupted` when the user asks to stop, `InputError` when the input cannot be read.
    public func forEachRow(progress: (Int) -> Void = { _ in }, _ body: (inout CSVRow) throws -> Void) throws {
        guard csv_init(parser, 0) == 0 else { throw InputError(file: path, reason: "libcsv could not start") }
        defer { csv_free(parser) }
        csv_set_delim(parser, options.delimiter)
        (fieldCount, arenaUsed, rowComplete, atUnterminatedEnd) = (0, 0, false, false)
        (rawCount, lineNo, rowStart, rowBytes, lastWidth) = (0, 0, 1, 0, 0)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: options.chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        var splitter = LineSplitter(maxLineBytes: options.maxLineBytes)
        var first = true
        while true {
            let n = try input.read(into: buffer)
            if n == 0 { break }
            var chunk = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: n)
            hasher.update(chunk)
            bytesRead += Int64(n)
            progress(n)
            if first {
                first = false
                if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk = UnsafeRawBufferPointer(rebasing: chunk[3...]) }
            }
            try splitter.split(chunk) { try handle($0, body) }
            if splitter.overlongBytes > options.maxEndlessLineBytes { throw ByteInput.endlessLine(path, line: lineNo + 1) }
        }
        atUnterminatedEnd = true
        try splitter.finish { try handle($0, body) }
        if parser.pointee.pstate == 2, parser.pointee.quoted != 0 {
            // The file ends inside a quoted field (FIELD_BEGUN, quoted): the quote never closes.
            try abandonOpenRow(.unbalancedQuote(lastLine: lineNo), body)
        }
        csv_fini(parser, csvFieldCallback, csvRowCallback, Unmanaged.passUnretained(self).toOpaque())
        try deliver(body)
    }

    private func handle(_ line: LineSplitter.Line, _ body: (inout CSVRow) throws -> Void) throws {
        switch line {
        case .text(let bytes):
            try feed(bytes, body)
        case .overlong(let head):
            // Report the line as one bad row (with any row it continued), then start afresh.
            lineNo += 1
            resetParser()
            rawCount = 0
            head.withUnsafeBytes { keepRaw($0) }
            var row = CSVRow(reader: self, line: lineNo, problem: .overlong)
            try body(&row)
            rawCount = 0
        }
    }

    private func feed(_ line: UnsafeRawBufferPointer, _ body: (inout CSVRow) throws -> Void) throws {
        let rowOpen = parser.pointee.pstate != 0 || fieldCount > 0
        if rowOpen {
            // The row that began on an earlier line is inside a quoted field. A line that is a
            // whole row by itself (and holds no quote that could close the field) means the
            // quote was stray: the open span is reported and this line starts afresh.
            if probe.isWholeRow(line, minFields: max(2, lastWidth - 1)) {
                try abandonOpenRow(.unbalancedQuote(lastLine: lineNo), body)
            } else if rowBytes + line.count > options.maxRowBytes {
                lineNo += 1
                try abandonOpenRow(.rowTooLarge(lastLine: lineNo), body)
                return
            }
        }
        if parser.pointee.pstate == 0 && fieldCount == 0 {  // ROW_NOT_BEGUN: a new row starts on this line
            rowStart = lineNo + 1
            rawCount = 0
        }
        keepRaw(line)
        rowBytes += line.count
        let done = csv_parse(parser, line.baseAddress, line.count, csvFieldCallback, csvRowCallback,
                             Unmanaged.passUnretained(self).toOpaque())
        if done != line.count {
            throw InputError(file: path, line: lineNo + 1, reason: "CSV parser error: \(String(cString: csv_strerror(csv_error(parser))))")
        }
        lineNo += 1
        try deliver(body)
    }

    /// Appends to the row's raw text, up to its cap.
    @inline(__always)
    private func keepRaw(_ bytes: UnsafeRawBufferPointer) {
        let n = min(bytes.count, Self.rawCapacity - rawCount)
        guard n > 0, let base = bytes.baseAddress else { return }
        (raw + rawCount).update(from: base.assumingMemoryBound(to: UInt8.self), count: n)
        rawCount += n
    }

    private func deliver(_ body: (inout CSVRow) throws -> Void) throws {
        guard rowComplete else { return }
        rowComplete = false
        lastWidth = fieldCount
        var row = CSVRow(reader: self, line: rowStart, unterminated: atUnterminatedEnd)
        try body(&row)
        fieldCount = 0
        arenaUsed = 0
        rowBytes = 0
        rawCount = 0
    }

    private func resetParser() {
        csv_free(parser)
        _ = csv_init(parser, 0)
        csv_set_delim(parser, options.delimiter)
        fieldCount = 0
        arenaUsed = 0
        rowBytes = 0
        rowComplete = false
    }

    /// Reports the open row (lines rowStart…through) as one bad row and starts afresh.
    private func abandonOpenRow(_ problem: RowProblem, _ body: (inout CSVRow) throws -> Void) throws {
        var row = CSVRow(reader: self, line: rowStart, problem: problem)
        resetParser()
        try body(&row)
        rawCount = 0
    }

    fileprivate func appendField(_ p: UnsafeRawPointer?, _ n: Int) {
        if fieldCount == spanCapacity {
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: 4 * spanCapacity)
            bigger.update(from: spans, count: 2 * spanCapacity)
            spans.deallocate()
            spans = bigger
            spanCapacity *= 2
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
        spans[2 * fieldCount] = arenaUsed
        spans[2 * fieldCount + 1] = n
        arenaUsed += n
        fieldCount += 1
    }
}

private func csvFieldCallback(_ s: UnsafeMutableRawPointer?, _ n: Int, _ ctx: UnsafeMutableRawPointer?) {
    // The reader outlives the parse that calls back: no retain/release per field.
    Unmanaged<CSVRowReader>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { $0.appendField(s, n) }
}

private func csvRowCallback(_ term: Int32, _ ctx: UnsafeMutableRawPointer?) {
    Unmanaged<CSVRowReader>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { $0.rowComplete = true }
}

/// Why a row could not be parsed at all (its fields are not available).
public enum RowProblem: Sendable, Equatable {
    /// One line longer than the reader's limit.
    case overlong
    /// A quoted field opened on the row's line never closed; the span runs to `lastLine`.
    case unbalancedQuote(lastLine: Int64)
    /// A row spanning lines grew past the limit (an open quote over a huge span); it ran to `lastLine`.
    case rowTooLarge(lastLine: Int64)
}

/// One parsed row, valid only inside the `forEachRow` callback (its fields point into the reader).
public struct CSVRow {
    fileprivate unowned(unsafe) let reader: CSVRowReader
    /// 1-based line the row starts on.
    public let line: Int64
    /// Set when the row could not be parsed; it then has no fields.
    public let problem: RowProblem?

    /// The file ended inside this row (no final line break): it may be cut off.
    public let unterminated: Bool

    fileprivate init(reader: CSVRowReader, line: Int64, problem: RowProblem? = nil, unterminated: Bool = false) {
        self.reader = reader
        self.line = line
        self.problem = problem
        self.unterminated = unterminated
    }

    /// The line was longer than the reader's limit and was not parsed.
    public var overlong: Bool { problem == .overlong }

    public var count: Int { problem != nil ? 0 : reader.fieldCount }

    /// Field `i` as bytes (empty when the row is shorter: ragged rows are normal in Clarity exports).
    @inline(__always)
    public func field(_ i: Int) -> UnsafeRawBufferPointer {
        guard i < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: reader.arena + reader.spans[2 * i], count: reader.spans[2 * i + 1])
    }

    /// Field `i` with surrounding spaces removed.
    @inline(__always)
    public func trimmed(_ i: Int) -> UnsafeRawBufferPointer { ByteText.trim(field(i)) }

    public func isEmpty(_ i: Int) -> Bool { trimmed(i).isEmpty }

    public func string(_ i: Int) -> String { String(decoding: trimmed(i), as: UTF8.self) }

    public func strings() -> [String] { (0..<count).map { string($0) } }

    /// The row's original text (without the final line break), for error reports.
    public var rawText: String {
        var b = UnsafeRawBufferPointer(start: reader.raw, count: reader.rawCount)[...]
        while let last = b.last, last == 0x0A || last == 0x0D { b = b.dropLast() }
        return EchoText.raw(b)
    }

    /// True if every field is empty (a blank or `,,,,` line).
    public var isBlank: Bool { (0..<count).allSatisfy { isEmpty($0) } }
}

/// Parses one line on its own with a separate libcsv parser, to tell whether it is a whole row:
/// used only while a row is open across lines, so it costs nothing on well-formed files.
private struct RowProbe {
    let delimiter: UInt8

    final class Counts {
        var fields = 0
        var rows = 0
    }

    func isWholeRow(_ line: UnsafeRawBufferPointer, minFields: Int) -> Bool {
        // A quote in the line could close the open field: then the line belongs to that row.
        var quotes = 0
        for b in line where b == UInt8(ascii: "\"") { quotes += 1 }
        guard quotes % 2 == 0 else { return false }
        var p = csv_parser()
        guard csv_init(&p, 0) == 0 else { return false }
        defer { csv_free(&p) }
        csv_set_delim(&p, delimiter)
        let counts = Counts()
        let ctx = Unmanaged.passUnretained(counts).toOpaque()
        let field: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = { _, _, c in
            Unmanaged<Counts>.fromOpaque(c!).takeUnretainedValue().fields += 1
        }
        let row: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, c in
            Unmanaged<Counts>.fromOpaque(c!).takeUnretainedValue().rows += 1
        }
        guard csv_parse(&p, line.baseAddress, line.count, field, row, ctx) == line.count else { return false }
        let insideQuotes = p.pstate == 2 && p.quoted != 0  // FIELD_BEGUN in a quoted field
        csv_fini(&p, field, row, ctx)
        return !insideQuotes && counts.rows == 1 && counts.fields >= minFields
    }
}
