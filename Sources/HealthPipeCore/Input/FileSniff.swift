/// The start of a file, for content-based format detection (never the file name).
public struct FileSniff: Sendable {
    public let path: String
    /// The first bytes as they are in the file.
    public let prefix: [UInt8]
    /// False for a stream (FIFO, pipe, standard input, device): it cannot be reopened or seeked.
    public let isRegularFile: Bool
    /// The prefix as text: UTF-16 with a byte-order mark decoded, a UTF-8 BOM removed.
    public let text: String
    // Decoded and split once: every detector looks at the same text (a 64 KB prefix per detector
    // otherwise costs more than reading a small file).
    private let allLines: [Substring]

    public init(path: String, prefix: [UInt8], isRegularFile: Bool = true) {
        self.path = path
        self.prefix = prefix
        self.isRegularFile = isRegularFile
        let text = FileSniff.decode(prefix)
        self.text = text
        allLines = FileSniff.lines(of: text)
    }

    /// The text split at LF, CRLF and CR, by bytes: line ends are single graphemes (a combining mark
    /// never joins them), so this equals splitting the Characters, at a tenth of the cost.
    private static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        var out: [Substring] = []
        var start = utf8.startIndex, i = start
        while i != utf8.endIndex {
            let b = utf8[i]
            guard b == 0x0A || b == 0x0D else { utf8.formIndex(after: &i); continue }
            out.append(text[start..<i])
            utf8.formIndex(after: &i)
            if b == 0x0D, i != utf8.endIndex, utf8[i] == 0x0A { utf8.formIndex(after: &i) }
            start = i
        }
        out.append(text[start..<utf8.endIndex])
        return out
    }

    /// Reads up to `limit` bytes from the start of `path` (`-` is standard input). A stream or standard
    /// input is kept open with the bytes read, for the source that reads it next (`ByteInput.open`).
    /// Throws `InputError` with the operating system's reason when it cannot be read.
    public static func read(path: String, limit: Int = defaultLimit) throws -> FileSniff {
        let input = try ByteInput.open(path)
        let prefix = try input.peek(limit)
        // Standard input is one descriptor whatever it is: a file redirected to it (`< export.csv`)
        // has had its offset moved by this read, so it is handed over like a pipe.
        if input.kind == .stream || path == "-" { InputHandoff.deposit(input) }
        return FileSniff(path: path, prefix: prefix, isRegularFile: input.kind == .regularFile)
    }

    public static let defaultLimit = 64 * 1024

    private static func decode(_ prefix: [UInt8]) -> String {
        if let bigEndian = UTF16Transcoder.byteOrder(of: prefix) {
            var t = UTF16Transcoder(bigEndian: bigEndian)
            var utf8: [UInt8] = []
            t.transcode(prefix.dropFirst(2), into: &utf8)
            return String(decoding: utf8, as: UTF8.self)
        }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first `n` lines of the prefix (LF, CRLF or CR line ends).
    public func lines(_ n: Int) -> [Substring] { Array(allLines.prefix(n)) }

    /// Every whole line of the prefix (a last line cut off by the prefix's end left out): detectors
    /// look as far as the bytes go, not a fixed number of lines (a two-pump CareLink export puts its
    /// column header on line 13).
    public var wholeLines: ArraySlice<Substring> {
        prefix.count >= FileSniff.defaultLimit && allLines.count > 1 ? allLines.dropLast() : allLines[...]
    }

    /// Why the prefix cannot be text any format reads, when its bytes show it: UTF-16 without a
    /// byte-order mark, UTF-32. Nil when it may be UTF-8 text (or UTF-16 with a mark, which is decoded).
    public var encodingProblem: String? {
        let p = prefix.prefix(4096)
        if p.starts(with: [0xFF, 0xFE, 0, 0]) || p.starts(with: [0, 0, 0xFE, 0xFF]) {
            return "the file is UTF-32 text, which is not supported: save it as UTF-8"
        }
        if UTF16Transcoder.byteOrder(of: p) != nil { return nil }
        guard p.count >= 8 else { return nil }
        let evenZeros = stride(from: 0, to: p.count, by: 2).filter { p[p.startIndex + $0] == 0 }.count
        let oddZeros = stride(from: 1, to: p.count, by: 2).filter { p[p.startIndex + $0] == 0 }.count
        let half = p.count / 2
        if oddZeros > half * 3 / 4, evenZeros < half / 8 {
            return "the file looks like UTF-16LE text without a byte-order mark: save it as UTF-8 (or UTF-16 with a BOM)"
        }
        if evenZeros > half * 3 / 4, oddZeros < half / 8 {
            return "the file looks like UTF-16BE text without a byte-order mark: save it as UTF-8 (or UTF-16 with a BOM)"
        }
        return nil
    }

    /// Why binary data is refused, by detection and by a text reader alike.
    public static let binaryData = "the file holds binary data (NUL bytes), not text any format HealthPipe reads"

    /// True when the prefix holds NUL bytes (and is not UTF-16): binary data, not text.
    public var looksBinary: Bool { UTF16Transcoder.byteOrder(of: prefix) == nil && prefix.prefix(4096).contains(0) }
}
