import Foundation
import HealthPipeCore

/// Feeds the Health XML to libxml2 and recovers from a malformed element: when the parser stops (a
/// mismatched end tag, a raw `&`, a control character, a byte that is not UTF-8, an element nested
/// too deep or larger than `maxElementBytes`), the element it stopped in is found by counting tags
/// from the end of the last complete one (`ElementSkipper`), quarantined with its line and raw text
/// (capped), and a fresh parser continues at the next element, so the rest of the export imports.
/// Memory: the bytes since the last complete top-level element (at most `maxElementBytes`).
final class RecoveringParser {
    /// A top-level element larger than this is refused whole (libxml2 could read up to 1 GB, in memory).
    static let maxElementBytes: Int64 = 64 << 20
    private static let rootTag = Array("<HealthData>".utf8)

    private let handler: ExportHandler
    private let where_: String
    private var parser: SAXPushParser
    /// The whole input's offset where the current parser's own bytes begin.
    private var instanceBase: Int64 = 0
    private var syntheticBytes: Int64 = 0
    private var lineBase = 0
    /// Bytes fed since `historyStart` (from the last complete element on).
    private var history: [UInt8] = []
    private var historyStart: Int64 = 0
    /// Offset of the next byte to arrive.
    private var streamOffset: Int64 = 0
    private var skip: Skip?
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

        mutating func capture(_ bytes: UnsafeRawBufferPointer.SubSequence) {
            let room = EchoText.rawLimit + 1 - raw.count
            if room > 0 { raw.append(contentsOf: bytes.prefix(room)) }
        }
    }

    init(handler: ExportHandler, entryName: String?) {
        self.handler = handler
        where_ = entryName.map { " (\($0) in the zip)" } ?? ""
        parser = SAXPushParser(handler: handler)
        wire()
    }

    private func wire() {
        let p = parser
        let base = instanceBase, synthetic = syntheticBytes, lines = lineBase
        handler.currentLine = { [unowned p] in p.line + lines }
        handler.consumed = { [unowned p] in base + p.consumed - synthetic }
        handler.stopParser = { [unowned p] in p.stop() }
    }

    /// Parses the next bytes of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !ended, !bytes.isEmpty else { return }
        if skip != nil { return skipThrough(bytes) }
        history.append(contentsOf: bytes)
        streamOffset += Int64(bytes.count)
        if parser.feed(bytes) {
            forgetCompleteElements()
            if streamOffset - handler.lastGoodEnd > Self.maxElementBytes {
                parser.stop()
                recover(reason: "an element larger than \(Self.maxElementBytes >> 20) MiB", errorAt: streamOffset, errorLine: parser.line + lineBase)
            }
            return
        }
        let error = parser.error
        recover(reason: handler.stopReason ?? error.map { "malformed XML: \(AppleHealthSource.explain($0.message))" } ?? "malformed XML",
                errorAt: errorOffset, errorLine: (error?.line ?? parser.line) + lineBase)
    }

    /// End of input: a parser still inside an element reports the cut; a span being skipped is quarantined.
    func finish() {
        guard !ended else { return }
        if skip == nil {
            if parser.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) || handler.documentEnded { return }
            let error = parser.error
            if !handler.rootStarted {
                fatal = (error?.line ?? 0, error?.message ?? "no HealthData element")
                ended = true
                return
            }
            recover(reason: error.map { "malformed XML: \(AppleHealthSource.explain($0.message))" } ?? "malformed XML",
                    errorAt: errorOffset, errorLine: (error?.line ?? parser.line) + lineBase)
        }
        guard let s = skip else { return }
        // The input ended inside the span: the file is cut off there.
        let line = s.start == nil ? Int64(s.errorLine) : s.startLine
        reject(line: line, reason: "the XML\(where_) cannot be read past line \(s.errorLine): \(s.reason) (the file ends inside "
               + "this element: truncated?); every complete record before it was imported", raw: s.raw)
        skip = nil
        ended = true
    }

    /// Where in the whole input the parser stopped: at its first fatal error or stop, else its end.
    private var errorOffset: Int64 {
        parser.errorOffset.map { instanceBase + $0 - syntheticBytes } ?? streamOffset
    }

    private func forgetCompleteElements() {
        let done = Int(handler.lastGoodEnd - historyStart)
        guard done > 0 else { return }
        if done >= history.count { history.removeAll(keepingCapacity: true) } else { history.removeFirst(done) }
        historyStart = handler.lastGoodEnd
    }

    /// The parser stopped: look for the bad element from the end of the last complete one.
    private func recover(reason: String, errorAt: Int64, errorLine: Int) {
        guard handler.rootStarted else {
            fatal = (errorLine, parser.error?.message ?? reason)
            ended = true
            return
        }
        if handler.documentEnded {
            // Bytes after </HealthData> are not part of the export, but are not dropped silently.
            let after = history[Int(max(0, handler.lastGoodEnd - historyStart))...].drop { $0 != UInt8(ascii: ">") }.dropFirst()
            reject(line: Int64(errorLine), reason: "content after the end of the HealthData element is not read (\(reason))",
                   raw: Array(after.drop { Self.isSpace($0) }))
            ended = true
            return
        }
        let from = max(handler.lastGoodEnd, historyStart)
        if ProcessInfo.processInfo.environment["HP_DEBUG"] != nil { print("recover errorAt=\(errorAt) from=\(from) stream=\(streamOffset) base=\(instanceBase) reason=\(reason)") }
        skip = Skip(skipper: ElementSkipper(offset: from, line: handler.lastGoodLine), reason: reason, errorAt: errorAt,
                    errorLine: errorLine, startLine: handler.lastGoodLine)
        let pending = Array(history[Int(from - historyStart)...])
        history.removeAll(keepingCapacity: true)
        historyStart = from
        streamOffset = from
        pending.withUnsafeBytes { skipThrough($0) }
    }

    /// Follows the bad span through `bytes` (which begin at `streamOffset`); once it ends, a new
    /// parser takes the rest.
    private func skipThrough(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while var s = skip {
            let before = i
            let event = s.skipper.next(in: bytes, from: &i)
            s.capture(bytes[before..<i])
            skip = s
            guard let event else { break }
            switch event {
            case .start(let at, let line):
                if s.start != nil {
                    // libxml2 stopped between the element that just ended and this one (it read a
                    // little past the end): that element was the bad one.
                    if let end = s.lastEnd, at > s.errorAt {
                        reject(line: s.startLine, reason: "\(s.reason) at line \(s.errorLine); the element (lines \(s.startLine)–\(end.line)) "
                               + "is quarantined and reading resumes after it", raw: s.raw)
                        return resume(bytes, at: Int(at - streamOffset), line: line)
                    }
                    continue
                }
                let index = Int(at - streamOffset)  // -1 when the `<` ended the previous chunk
                let textBefore = s.raw.dropLast(i - max(index, 0)).dropLast(index < 0 ? 1 : 0)
                if at > s.errorAt, let first = textBefore.firstIndex(where: { !Self.isSpace($0) }) {
                    // libxml2 stopped in text between elements: quarantine the text, keep the element.
                    let junkLine = s.startLine + Int64(textBefore[..<first].filter { $0 == 0x0A }.count)
                    reject(line: junkLine, reason: "\(s.reason) at line \(s.errorLine) (text between elements)", raw: Array(textBefore[first...]))
                    return resume(bytes, at: index, line: line)
                }
                s.start = at
                s.startLine = line
                s.raw = (index < 0 ? [UInt8(ascii: "<")] : []) + Array(bytes[max(index, 0)..<i])
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
                return resume(bytes, at: Int(at - streamOffset), line: line)
            case .rootEnd:
                if s.start != nil { reject(line: s.startLine, reason: "\(s.reason) at line \(s.errorLine)", raw: s.raw) }
                skip = nil
                ended = true
                return
            }
        }
        streamOffset += Int64(bytes.count)
    }

    /// Starts a fresh parser at `bytes[index]` (line `line`) inside a synthetic root element; an
    /// index of -1 means the element's `<` ended the previous chunk.
    private func resume(_ bytes: UnsafeRawBufferPointer, at index: Int, line: Int64) {
        skip = nil
        let at = streamOffset + Int64(index)
        instanceBase = at
        syntheticBytes = Int64(Self.rootTag.count)
        lineBase = Int(line) - 1
        handler.restart()
        parser = SAXPushParser(handler: handler)
        wire()
        Self.rootTag.withUnsafeBytes { _ = parser.feed($0) }
        handler.lastGoodEnd = at
        handler.lastGoodLine = line
        history.removeAll(keepingCapacity: true)
        historyStart = at
        streamOffset = at
        if index < 0 { [UInt8(ascii: "<")].withUnsafeBytes { feed($0) } }
        feed(UnsafeRawBufferPointer(rebasing: bytes[max(index, 0)...]))
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    private func reject(line: Int64, reason: String, raw: [UInt8]) {
        var text = Array(raw.prefix(EchoText.rawLimit))
        while let last = text.last, last == 0x0A || last == 0x0D || last == 0x20 { text.removeLast() }
        handler.rejects.append(RowError(file: handler.path, line: line, reason: reason, raw: EchoText.raw(text)))
    }
}
