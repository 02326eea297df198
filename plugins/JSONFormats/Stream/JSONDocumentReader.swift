import Foundation
import HealthPipeCore

/// Streams the objects of a JSON file one at a time with flat memory: a top-level array of objects
/// (API dumps, `mongoexport --jsonArray`, Tidepool exports), one object per line (`mongoexport`,
/// NDJSON), concatenated objects, or a single object. Each object is parsed in place in a read
/// buffer (1 MiB, grown only for a larger object, up to 64 MiB) and handed to the callback; an
/// object cut by the buffer's end is parsed again once more bytes are read.
final class JSONDocumentReader {
    struct Problem {
        var line: Int64
        var reason: String
        var raw: String
    }

    static let chunk = 1 << 20
    static let maxDocument = 64 << 20

    let path: String
    /// The first read buffer and the largest object held: `chunk`/`maxDocument` unless a test or the
    /// fuzzer shrinks them, so short inputs reach buffer growth and the size limit.
    private let firstBuffer: Int
    private let largest: Int
    private(set) var size: Int64 = 0
    private var hasher = ContentHasher()
    /// Through `ByteInput`: a pipe or standard input that format detection began to read is taken
    /// over with the bytes it read, and reads honour Ctrl-C.
    private let input: ByteInput
    private let document: JSONDocument

    /// When set, a top-level object holding this array is read as the array's elements (`JSONEnvelope`).
    private let envelope: JSONEnvelope?

    init(path: String, table: JSONPathTable, chunk: Int = JSONDocumentReader.chunk,
         maxDocument: Int = JSONDocumentReader.maxDocument, envelope: JSONEnvelope? = nil) throws {
        self.path = path
        self.envelope = envelope
        firstBuffer = chunk
        largest = maxDocument
        document = JSONDocument(table: table)
        input = try ByteInput.open(path)
        try input.refuseUnlessText()
        size = input.size
    }

    /// The content hash of everything read so far.
    var contentHash: String { hasher.finalize() }

    /// Calls `body` with each object; `problem` gets what cannot be read (with its line), and reading goes on.
    /// `member` gets each member an envelope's object has before its array (key, raw JSON value).
    func forEach(progress: (Int) -> Void, _ body: (JSONDocument) throws -> Void, problem: (Problem) throws -> Void,
                 member: (String, String) throws -> Void = { _, _ in }) throws {
        var cap = firstBuffer
        var buf = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
        defer { buf.deallocate() }
        var filled = 0, pos = 0, eof = false, first = true
        var line: Int64 = 1
        var inArray = false
        var index = 0
        // Inside the envelope's array, and after it until the envelope's closing `}`.
        var inEnvelope = false, closingEnvelope = false
        var parser = JSONDocumentParser(document: document)

        /// Keeps the bytes from `pos` on, reads more; false when nothing more can be read.
        func refill() throws -> Bool {
            if eof { return false }
            if pos > 0 {
                if filled > pos { memmove(buf, buf + pos, filled - pos) }
                filled -= pos
                pos = 0
            }
            if filled == cap {
                guard cap < largest else { return false }
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: cap * 2)
                bigger.update(from: buf, count: filled)
                buf.deallocate()
                buf = bigger
                cap *= 2
            }
            do {
                let r = try input.read(into: UnsafeMutableRawBufferPointer(start: buf + filled, count: cap - filled))
                if r == 0 { eof = true; return false }
                hasher.update(UnsafeRawBufferPointer(start: buf + filled, count: r))
                progress(r)
                if first {
                    first = false
                    if r >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { pos = 3 }
                }
                filled += r
                return true
            } catch var e as InputError {
                if e.line == nil { e.line = line }
                throw e
            }
        }

        /// Skips a value that is not read (bad or not an object): to its matching close, tracking
        /// strings; to the end of the line when it never closes. Counts the lines it passes.
        func skipValue() throws {
            var nesting = JSONNesting(), j = pos, started = false
            while true {
                while j < filled {
                    let c = buf[j]
                    // A scalar ends before the array's `]`: the array still closes, with no
                    // "truncated" line after a last element `5]`. (A value that is a stray `]` goes.)
                    if started && nesting.depth == 0 && !nesting.inString && (c == UInt8(ascii: "]") || c == UInt8(ascii: "}")) {
                        pos = j
                        return
                    }
                    started = true
                    if c == 0x0A { line += 1; nesting.endLine() }
                    if nesting.closesValue(c) {
                        pos = j + 1
                        return
                    } else if nesting.depth == 0 && !nesting.inString && (c == UInt8(ascii: ",") || c == 0x0A) {
                        pos = j + (c == 0x0A ? 1 : 0)
                        return
                    }
                    j += 1
                }
                let consumed = j - pos
                pos = j
                _ = consumed
                guard try refill() else { pos = filled; return }
                j = pos
            }
        }

        /// Skips to the start of the next line.
        func skipLine() throws {
            while true {
                while pos < filled { if buf[pos] == 0x0A { return }; pos += 1 }
                guard try refill() else { return }
            }
        }

        while true {
            // Whitespace and separators between objects.
            while pos < filled {
                let c = buf[pos]
                if c == 0x0A { line += 1; pos += 1 }
                else if c == 0x20 || c == 0x0D || c == 0x09 || c == UInt8(ascii: ",") { pos += 1 }
                else { break }
            }
            if pos == filled {
                guard try refill() else { break }
                continue
            }
            let c = buf[pos]
            if closingEnvelope {
                closingEnvelope = false
                if c == UInt8(ascii: "}") { pos += 1; continue }
                let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: valueLength(buf + pos, filled - pos)), as: UTF8.self)
                try problem(Problem(line: line, reason: "the top-level object goes on after its array (not read)", raw: raw))
                continue
            }
            if let envelope, !inEnvelope, !inArray, c == UInt8(ascii: "{") {
                switch envelope.head(buf + pos, filled - pos) {
                case .incomplete:
                    if try refill() { continue }
                    let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: min(512, filled - pos)), as: UTF8.self)
                    if eof {
                        try problem(Problem(line: line, reason: "the file ends before the object's array opens (truncated?)", raw: raw))
                        return
                    }
                    // Members before the array too large to hold: refused (their first bytes kept), the rest read on.
                    try problem(Problem(line: line, reason: "the members before the object's array are larger than \(largest >> 20) MiB "
                                        + "and are not read (their first 512 bytes are kept)", raw: raw))
                    try skipLine()
                    continue
                case .invalid(let reason):
                    let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: min(512, badValueLength(buf + pos, filled - pos, inArray: false))),
                                     as: UTF8.self)
                    try problem(Problem(line: line, reason: "invalid JSON in the top-level object: \(reason)", raw: raw))
                    try skipLine()
                    continue
                case .noArray:
                    break  // read as one ordinary document below
                case .entered(let length, let newlines, let members):
                    for m in members { try member(m.key, m.raw) }
                    pos += length
                    line += Int64(newlines)
                    inArray = true
                    inEnvelope = true
                    index = 0
                    continue
                }
            }
            if c == UInt8(ascii: "[") && !inArray {
                inArray = true
                index = 0
                pos += 1
                continue
            }
            if c == UInt8(ascii: "]") && inArray {
                inArray = false
                pos += 1
                if inEnvelope {
                    inEnvelope = false
                    closingEnvelope = true
                }
                continue
            }
            guard c == UInt8(ascii: "{") else {
                let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: valueLength(buf + pos, filled - pos)), as: UTF8.self)
                try problem(Problem(line: line, reason: (inArray ? "$[\(index)] is not a JSON object" : "not a JSON object or array")
                                    + " (starts with '\(JSONDocumentParser.show(c))')", raw: raw))
                try skipValue()
                if inArray { index += 1 }
                continue
            }
            switch parser.parse(buf + pos, count: filled - pos) {
            case .complete(let length, let newlines):
                document.end(at: length)
                document.line = line
                document.index = index
                document.inArray = inArray
                try body(document)
                pos += length
                line += Int64(newlines)
                index += 1
            case .incomplete:
                if try refill() { continue }
                let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: min(512, filled - pos)), as: UTF8.self)
                if eof {
                    try problem(Problem(line: line, reason: (inArray ? "$[\(index)]: " : "") + "the file ends inside this object (truncated?)",
                                        raw: raw))
                    return
                }
                // Too large to hold: refused (its first bytes kept), skipped to its end, and the file read on.
                try problem(Problem(line: line, reason: (inArray ? "$[\(index)]: " : "")
                                    + "an object larger than \(largest >> 20) MiB is not read (its first 512 bytes are kept)",
                                    raw: raw))
                if inArray { try skipValue() } else { try skipLine() }
                index += 1
            case .invalid(let offset, let reason):
                let before = UnsafeRawBufferPointer(start: buf + pos, count: offset)
                let at = line + Int64(before.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
                let raw = String(decoding: UnsafeRawBufferPointer(start: buf + pos, count: badValueLength(buf + pos, filled - pos, inArray: inArray)),
                                 as: UTF8.self)
                try problem(Problem(line: line, reason: "invalid JSON in \(inArray ? "$[\(index)]" : "the object")"
                                    + (at != line ? " (at line \(at))" : "") + ": \(reason)", raw: raw))
                // In an array the bad element is skipped to its matching close; in a file of one
                // object per line (mongoexport) only its own line goes, so a cut-off document does
                // not take the next ones with it.
                if inArray { try skipValue() } else { try skipLine() }
                index += 1
            }
        }
        // An array without its closing `]` is a cut download, however complete its documents look.
        if closingEnvelope {
            try problem(Problem(line: line, reason: "the file ends before the top-level object's closing '}' (truncated download?)", raw: ""))
        }
        if inArray {
            try problem(Problem(line: line, reason: "the file ends inside the array after $[\(index - 1)], before its closing ']' "
                                + "(truncated download?): the documents after it are missing", raw: ""))
        }
    }

    /// How many bytes of a value that is not an object belong to it, for the quarantine's `raw`: a
    /// scalar up to the `,`, `]` or line end after it; an array up to its matching close (strings
    /// tracked); up to 512 bytes when its end is not in the bytes read.
    private func valueLength(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var nesting = JSONNesting(), j = 0
        while j < min(n, 4096) {
            let c = p[j]
            if j > 0 && nesting.depth == 0 && !nesting.inString && (c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == 0x0A) {
                while j > 0 && (p[j - 1] == 0x20 || p[j - 1] == 0x0D || p[j - 1] == 0x09) { j -= 1 }
                return j
            }
            if nesting.closesValue(c) { return j + 1 }
            j += 1
        }
        return min(512, n)
    }

    /// How many bytes of a value that is not valid JSON belong to it, for the quarantine's `raw`: in
    /// a file of one document per line its line; in an array up to its matching close (strings
    /// tracked) when that lies in the bytes read, else up to 512 bytes.
    private func badValueLength(_ p: UnsafePointer<UInt8>, _ n: Int, inArray: Bool) -> Int {
        if !inArray {
            var j = 0
            while j < n, p[j] != 0x0A { j += 1 }
            return j > 0 && p[j - 1] == 0x0D ? j - 1 : j
        }
        var nesting = JSONNesting(), j = 0
        while j < n {
            if nesting.closesValue(p[j]) { return j + 1 }
            j += 1
        }
        return min(512, n)
    }
}

/// Brackets and strings of a JSON value read byte by byte without parsing it, to find where a
/// value that is skipped or quarantined ends.
struct JSONNesting {
    private(set) var depth = 0
    private(set) var inString = false
    private var escaped = false

    /// Takes the next byte; true when it closes the value that began at depth 0.
    mutating func closesValue(_ c: UInt8) -> Bool {
        if inString {
            if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
        } else if c == 0x22 {
            inString = true
        } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
            depth += 1
        } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
            depth -= 1
            return depth <= 0
        }
        return false
    }

    /// A string never spans lines in the files read here: a newline ends an unclosed one.
    mutating func endLine() { inString = false }
}
