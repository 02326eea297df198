import Glibc
import HealthPipeCore

/// Feeds the Health XML to libxml2 and recovers from a malformed element: when the parser stops (a
/// mismatched end tag, a raw `&`, a control character, a byte that is not UTF-8, an element nested
/// too deep or larger than `maxElementBytes`), the element it stopped in is found by counting tags
/// from the end of the last complete one (`ElementSkipper`), quarantined with its line and raw text
/// (capped), and a fresh parser continues at the next element, so the rest of the export imports.
///
/// The bytes live in one window, from the last complete top-level element on; recovery works on
/// offsets into it, iteratively, so a chunk full of bad elements costs neither copies nor recursion.
/// Memory: the window, at most `maxElementBytes` plus a chunk.
final class RecoveringParser {
    /// A top-level element larger than this is refused whole: libxml2 (with XML_PARSE_HUGE) would read
    /// up to 1 GB, holding several copies in memory. Health elements are kilobytes; 16 MiB keeps an
    /// over-10 MB attribute (libxml2's own limit without HUGE) readable and the worst case near 150 MiB.
    static let maxElementBytes: Int64 = 16 << 20
    private static let rootTag = Array("<HealthData>".utf8)

    private let handler: ExportHandler
    private let where_: String
    private var parser: SAXPushParser
    /// The whole input's offset where the current parser's own bytes begin.
    private var instanceBase: Int64 = 0
    private var syntheticBytes: Int64 = 0
    private var lineBase = 0
    /// Input bytes from `windowStart` on; `fed` is the offset up to which the parser or the skipper
    /// has seen them.
    private var window: [UInt8] = []
    private var windowStart: Int64 = 0
    private var fed: Int64 = 0
    private var skip: Skip?
    /// Reads plain records without libxml2 (nil: every byte goes to libxml2).
    private let plain: PlainRecordReader?
    /// What the current parser never saw: the plain records read around it.
    private var elidedBytes: Int64 = 0 { didSet { handler.position.elidedBytes = elidedBytes } }
    private var elidedLines = 0 { didSet { handler.position.elidedLines = elidedLines } }
    /// Whether the plain reader may be tried at `fed`; false for one candidate it declined.
    private var plainAtFed = true
    /// Records the plain reader read.
    private(set) var plainRecords = 0
    /// Set when the document cannot be read at all (broken before its root element starts).
    private(set) var fatal: (line: Int, message: String)?
    /// No more input is wanted: the root element closed, or a fatal error.
    private(set) var ended = false

    /// A malformed span being skipped: why, where libxml2 stopped, where the bad element began, and
    /// its first bytes (or those of the text before it) for the quarantine.
    private struct Skip {
        var skipper: ElementSkipper
        var reason: String
        var errorAt: Int64
        var errorLine: Int
        var start: Int64?
        var startLine: Int64
        var raw: [UInt8] = []
        /// The last element end seen before the error offset (libxml2 may stop just past it).
        var lastEnd: (at: Int64, line: Int64)?

        mutating func capture(_ bytes: Slice<UnsafeRawBufferPointer>) {
            let room = EchoText.rawLimit + 1 - raw.count
            if room > 0 { raw.append(contentsOf: bytes.prefix(room)) }
        }
    }

    init(handler: ExportHandler, entryName: String?, readsPlainRecords: Bool) {
        self.handler = handler
        plain = readsPlainRecords ? PlainRecordReader() : nil
        where_ = entryName.map { " (\($0) in the zip)" } ?? ""
        parser = SAXPushParser(handler: handler)
        wire()
    }

    private func wire() {
        let p = parser
        handler.position = InputPosition(parser: p, base: instanceBase, synthetic: syntheticBytes, lineBase: lineBase)
        elidedBytes = 0
        elidedLines = 0
        handler.stopParser = { [unowned p] in p.stop() }
        handler.elementBytes = { [unowned self] in self.currentElement() }
    }

    /// The top-level element being read, from its `<` through its end tag (all its lines; the quarantine
    /// caps them): the window holds it whole while the parser is inside it, from `lastGoodEnd` on.
    private func currentElement() -> [UInt8] {
        let from = max(handler.lastGoodEnd, windowStart)
        guard from < windowEnd else { return [] }
        var skipper = ElementSkipper(offset: from, line: handler.lastGoodLine)
        return window.withUnsafeBytes { all -> [UInt8] in
            let bytes = UnsafeRawBufferPointer(rebasing: all[Int(from - windowStart)...])
            var i = 0
            var start: Int?
            while let event = skipper.next(in: bytes, from: &i) {
                switch event {
                case .start(let at, _):
                    if start == nil { start = Int(at - from) }
                case .end(let at, _):
                    guard let s = start else { continue }
                    return Array(bytes[s..<max(s, Int(at - from))])
                case .rootEnd:
                    return []
                }
            }
            return start.map { Array(bytes[$0...]) } ?? []
        }
    }

    private var windowEnd: Int64 { windowStart + Int64(window.count) }

    /// Parses the next bytes of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !ended, !bytes.isEmpty else { return }
        compact()
        window.append(contentsOf: bytes)
        process()
    }

    /// End of input: a parser still inside an element reports the cut; a span being skipped is quarantined.
    func finish() {
        while !ended {
            if let s = skip {
                // The input ended inside the span: the file is cut off there.
                let line = s.start == nil ? Int64(s.errorLine) : s.startLine
                reject(line: line, reason: "the XML\(where_) cannot be read past line \(s.errorLine): \(s.reason) (the file ends inside "
                       + "this element: truncated?); every complete record before it was imported", raw: s.raw)
                skip = nil
                ended = true
                return
            }
            process(final: true)
            if ended { return }
            if skip != nil { continue }
            if parser.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) || handler.documentEnded { return }
            recover()
            process()
        }
    }

    /// Drops the bytes no recovery can need: before the last complete element while parsing, before
    /// the skipper's position (but its last byte, a `<` a resume may start at) while skipping.
    private func compact() {
        let keep = skip == nil ? min(handler.lastGoodEnd, fed) : fed - 1
        let drop = Int(keep - windowStart)
        guard drop > 0 else { return }
        if drop >= window.count { window.removeAll(keepingCapacity: true) } else { window.removeFirst(drop) }
        windowStart += Int64(drop)
    }

    /// Hands the window's unseen bytes to the parser, or to the skipper while a bad span lasts,
    /// until they are all seen (or the document ended). Plain records between top-level elements
    /// are read without the parser (`PlainRecordReader`); at the end of input (`final`) a record cut
    /// off by the window's end is the parser's too.
    private func process(final: Bool = false) {
        while !ended, fed < windowEnd {
            let from = Int(fed - windowStart)
            if skip != nil {
                window.withUnsafeBytes { skipThrough(UnsafeRawBufferPointer(rebasing: $0[from...])) }
                continue
            }
            // Up to the next plain record the reader takes (all of it when there is none).
            var until = windowEnd
            if let plain, handler.rootStarted {
                switch window.withUnsafeBytes({ readPlain(plain, $0, from: from, final: final) }) {
                case .read: continue
                case .waiting: return
                case .parser(let upTo): until = upTo
                }
            } else if plain != nil, let gt = window[from...].firstIndex(of: UInt8(ascii: ">")) {
                // The prolog a tag at a time, so the root's start is known before the first record.
                until = windowStart + Int64(gt + 1)
            }
            let to = Int(until - windowStart)
            let ok = window.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
            fed = until
            plainAtFed = true
            if !ok {
                recover()
            } else if fed - handler.lastGoodEnd > Self.maxElementBytes {
                parser.stop()
                recover(reason: "an element larger than \(Self.maxElementBytes >> 20) MiB")
            }
        }
    }

    private enum PlainStep {
        /// Records were read and `fed` moved past them.
        case read
        /// A record is cut off by the window's end: wait for more bytes.
        case waiting
        /// The parser takes the bytes up to this offset.
        case parser(upTo: Int64)
    }

    /// Looks for a `<Record` from `from` (an index into the window, `bytes`): when it is the next
    /// top-level element and the parser has handed over every element before it, the plain reader
    /// reads it; the whitespace before it and the record itself are never fed to the parser.
    private func readPlain(_ plain: PlainRecordReader, _ bytes: UnsafeRawBufferPointer, from: Int, final: Bool) -> PlainStep {
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var search = plainAtFed ? from : from + 1
        while true {
            guard search < bytes.count, let lt = memchr(p + search, Int32(UInt8(ascii: "<")), bytes.count - search) else {
                return .parser(upTo: windowEnd)
            }
            let at = UnsafeRawPointer(lt) - UnsafeRawPointer(p)
            // Only whitespace since the last complete top-level element, which the handler has seen end.
            var g = at - 1
            var gap = 0
            while g >= 0, PlainRecordReader.isSpace(p[g]) {
                if p[g] == 0x0A { gap += 1 }
                g -= 1
            }
            guard g >= 0, p[g] == UInt8(ascii: ">"), windowStart + Int64(g + 1) == handler.lastGoodEnd,
                  handler.betweenTopElements, at + 1 < bytes.count, p[at + 1] == UInt8(ascii: "R") else {
                // Not a record at the top level: the parser reads up to the next `<` after this one.
                guard at > from else { search = at + 1; continue }
                return .parser(upTo: windowStart + Int64(at))
            }
            let firstLine = Int(handler.lastGoodLine) + gap
            let base = windowStart
            let outcome = plain.read(bytes, at: at, handler: handler) { [handler] newlines, index in
                handler.position.plain = (firstLine + newlines, base + Int64(index))
            }
            handler.position.plain = nil
            switch outcome {
            case .read(let end, let lines):
                // Counted from `fed`: the whitespace before the record is not fed either.
                var before = 0
                for k in from..<at where p[k] == 0x0A { before += 1 }
                elidedBytes += Int64(end - from)
                elidedLines += before + lines
                fed = windowStart + Int64(end)
                plainAtFed = true
                plainRecords += 1
                return .read
            case .needMore where !final:
                if at > from { return .parser(upTo: windowStart + Int64(at)) }
                return .waiting
            case .needMore, .declined:
                if at > from { return .parser(upTo: windowStart + Int64(at)) }
                plainAtFed = false
                search = at + 1
            }
        }
    }

    /// Where in the whole input the parser stopped: at its first fatal error or stop, else its end.
    private var errorOffset: Int64 {
        parser.errorOffset.map { instanceBase + $0 - syntheticBytes + elidedBytes } ?? windowEnd
    }

    /// The parser stopped: the bad element is looked for from the end of the last complete one.
    private func recover(reason given: String? = nil) {
        let error = parser.error
        let reason = given ?? handler.stopReason ?? error.map { "malformed XML: \(AppleHealthSource.explain($0.message))" } ?? "malformed XML"
        let errorLine = (error?.line ?? parser.line) + lineBase + elidedLines
        guard handler.rootStarted else {
            fatal = (errorLine, error?.message ?? reason)
            ended = true
            return
        }
        let from = max(handler.lastGoodEnd, windowStart)
        if handler.documentEnded {
            // Bytes after </HealthData> are not part of the export, but are not dropped silently.
            let after = window[Int(from - windowStart)...].drop { $0 != UInt8(ascii: ">") }.dropFirst()
            reject(line: Int64(errorLine), reason: "content after the end of the HealthData element is not read (\(reason))",
                   raw: Array(after.drop { Self.isSpace($0) }.prefix(EchoText.rawLimit)))
            ended = true
            return
        }
        skip = Skip(skipper: ElementSkipper(offset: from, line: handler.lastGoodLine), reason: reason, errorAt: errorOffset,
                    errorLine: errorLine, startLine: handler.lastGoodLine)
        fed = from
    }

    /// Follows the bad span through `bytes` (which begin at `fed`); moves `fed` past what it read,
    /// and once the span ends starts a new parser there.
    private func skipThrough(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        defer { if skip != nil { fed += Int64(i) } }
        while var s = skip {
            let before = i
            let event = s.skipper.next(in: bytes, from: &i)
            s.capture(bytes[before..<i])
            skip = s
            guard let event else { return }
            switch event {
            case .start(let at, let line):
                if s.start != nil {
                    // libxml2 stopped between the element that just ended and this one (it read a
                    // little past the end): that element was the bad one.
                    if let end = s.lastEnd, at > s.errorAt {
                        reject(line: s.startLine, reason: "\(s.reason) at line \(s.errorLine); the element (lines \(s.startLine)–\(end.line)) "
                               + "is quarantined and reading resumes after it", raw: s.raw)
                        return resume(at: at, line: line)
                    }
                    continue
                }
                // Bytes of this tag already captured (`<` and the first name byte, perhaps across chunks).
                let tagBytes = Int(fed + Int64(i) - at)
                let textBefore = s.raw.dropLast(tagBytes)
                if at > s.errorAt, let first = textBefore.firstIndex(where: { !Self.isSpace($0) }) {
                    // libxml2 stopped in text between elements: quarantine the text, keep the element.
                    let junkLine = s.startLine + Int64(textBefore[..<first].filter { $0 == 0x0A }.count)
                    reject(line: junkLine, reason: "\(s.reason) at line \(s.errorLine) (text between elements)", raw: Array(textBefore[first...]))
                    return resume(at: at, line: line)
                }
                s.start = at
                s.startLine = line
                s.raw = Array(s.raw.suffix(tagBytes))
                skip = s
            case .end(let at, let line):
                // An element that ends before the point libxml2 stopped at stays in the span.
                guard s.start != nil else { continue }
                guard at >= s.errorAt else {
                    s.lastEnd = (at, line)
                    skip = s
                    continue
                }
                reject(line: s.startLine, reason: "\(s.reason) at line \(s.errorLine); the element (lines \(s.startLine)–\(line)) is "
                       + "quarantined and reading resumes after it", raw: s.raw)
                return resume(at: at, line: line)
            case .rootEnd:
                if s.start != nil { reject(line: s.startLine, reason: "\(s.reason) at line \(s.errorLine)", raw: s.raw) }
                skip = nil
                ended = true
                return
            }
        }
    }

    /// Starts a fresh parser at offset `at` (line `line`) inside a synthetic root element.
    private func resume(at: Int64, line: Int64) {
        skip = nil
        instanceBase = at
        syntheticBytes = Int64(Self.rootTag.count)
        lineBase = Int(line) - 1
        handler.restart()
        parser = SAXPushParser(handler: handler)
        wire()
        Self.rootTag.withUnsafeBytes { _ = parser.feed($0) }
        handler.lastGoodEnd = at
        handler.lastGoodLine = line
        fed = at
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    private func reject(line: Int64, reason: String, raw: [UInt8]) {
        var text = Array(raw.prefix(EchoText.rawLimit))
        while let last = text.last, last == 0x0A || last == 0x0D || last == 0x20 { text.removeLast() }
        // A span the parser could not read is no element it could type.
        handler.quarantine(RowError(file: handler.path, line: line, reason: reason, raw: EchoText.raw(text)), slot: handler.tally.untyped)
    }
}

/// The parser's line and consumed bytes as offsets into the whole input: a parser started after a
/// malformed element reads from `base`, inside a synthetic root of `synthetic` bytes, `lineBase`
/// lines in; the elements `PlainRecordReader` read never reach it (`elidedBytes`, `elidedLines`),
/// and while one of them is handed over, `plain` is where that reader is. Asked on every element,
/// so read directly (no closure, no retain): the handler only asks from the current parser's
/// callbacks (or the plain reader's), while `RecoveringParser` holds that parser.
struct InputPosition {
    unowned(unsafe) var parser: SAXPushParser?
    var base: Int64 = 0
    var synthetic: Int64 = 0
    var lineBase = 0
    var elidedBytes: Int64 = 0
    var elidedLines = 0
    var plain: (line: Int, consumed: Int64)?

    var line: Int {
        if let plain { return plain.line }
        return (parser?.line ?? 0) + lineBase + elidedLines
    }

    var consumed: Int64 {
        if let plain { return plain.consumed }
        return parser.map { base + $0.consumed - synthetic + elidedBytes } ?? 0
    }
}
