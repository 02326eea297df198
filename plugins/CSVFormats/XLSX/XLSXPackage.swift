import Foundation
import HealthPipeCore
import ZipReading

/// An Office Open XML workbook (`.xlsx`: a zip of XML parts), read in place: the workbook's sheet
/// list, relationships, styles and shared strings, and each worksheet streamed through libxml2.
final class XLSXPackage {
    struct Sheet {
        var name: String
        /// Path of the worksheet part inside the zip (`xl/worksheets/sheet1.xml`).
        var part: String
    }

    let path: String
    private let archive: ZipArchive
    private(set) var sheets: [Sheet] = []
    /// The shared strings (held for the whole read: a workbook's distinct texts), nil when the
    /// workbook has no `xl/sharedStrings.xml`.
    private(set) var sharedStrings = SharedStrings()
    private(set) var hasSharedStrings = false
    private(set) var styles = CellStyles()
    /// Dates count from 1904-01-01 (old Mac workbooks) instead of 1899-12-30.
    private(set) var date1904 = false

    /// `contents: false` reads only the sheet list (content detection).
    init(path: String, contents: Bool = true) throws {
        self.path = path
        do { archive = try ZipArchive(path: path) } catch {
            throw InputError(file: path, reason: "not a readable zip archive (\(error))")
        }
        guard archive["xl/workbook.xml"] != nil else {
            throw InputError(file: path, reason: "not an Excel workbook (the zip has no xl/workbook.xml)")
        }
        let book = WorkbookParts()
        try stream("xl/workbook.xml", book)
        let rels = Relationships()
        try stream("xl/_rels/workbook.xml.rels", rels)
        date1904 = book.date1904
        sheets = book.sheets.compactMap { s in
            rels.targets[s.relation].map { Sheet(name: s.name, part: Self.resolve($0)) }
        }
        guard contents else { return }
        if archive["xl/styles.xml"] != nil { try stream("xl/styles.xml", styles) }
        if archive["xl/sharedStrings.xml"] != nil {
            let strings = SharedStrings()
            try stream("xl/sharedStrings.xml", strings) { _ in strings.overLimit == nil }
            if let why = strings.overLimit {
                throw InputError(file: path, reason: "the workbook is refused: \(why) (xl/sharedStrings.xml inflates to "
                                 + "\(uncompressedSize("xl/sharedStrings.xml") >> 20) MiB; a device export holds a few MiB)")
            }
            sharedStrings = strings
            hasSharedStrings = true
        }
    }

    /// Bytes of the zip file.
    var size: Int64 { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0 }

    /// Inflated bytes of a part (for progress).
    func uncompressedSize(_ part: String) -> Int64 { archive[part].map { Int64($0.uncompressedSize) } ?? 0 }

    /// `worksheets/sheet1.xml` or `/xl/worksheets/sheet1.xml` → `xl/worksheets/sheet1.xml`.
    static func resolve(_ target: String) -> String {
        if target.hasPrefix("/") { return String(target.dropFirst()) }
        return "xl/" + target
    }

    /// Streams one part through `handler`; `chunk` sees the inflated bytes (content hash, progress)
    /// and returns false to stop reading.
    func stream(_ part: String, _ handler: XMLStreamHandler, chunk: (UnsafeRawBufferPointer) -> Bool = { _ in true }) throws {
        struct Stop: Error {}
        guard let entry = archive[part] else { throw InputError(file: path, reason: "the workbook has no part \(part)") }
        let parser = XMLStream(handler: handler)
        do {
            var stopped = false
            try archive.read(entry) { b in
                stopped = !(chunk(b) && parser.feed(b))
                return !stopped
            }
            if stopped { throw Stop() }
        } catch is Stop {
            if let e = parser.error { throw InputError(file: path, reason: "\(part): \(e)") }
            return
        } catch let e as InputError { throw e
        } catch let e as StageFailure { throw e
        } catch {
            throw InputError(file: path, reason: "cannot read \(part) from the workbook: \(error)")
        }
        parser.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
        if let e = parser.error { throw InputError(file: path, reason: "\(part): \(e)") }
    }

    /// Up to `limit` bytes of a part, for content detection.
    func peek(_ part: String, limit: Int = 64 << 10) -> [UInt8] {
        guard let entry = archive[part] else { return [] }
        return (try? archive.prefix(of: entry, limit: limit)) ?? []
    }
}

/// `xl/workbook.xml`: the sheets in order, with their relationship ids, and the date system.
final class WorkbookParts: XMLStreamHandler {
    var sheets: [(name: String, relation: String)] = []
    var date1904 = false
    func start(_ name: UnsafePointer<UInt8>, _ a: XMLAttributes) {
        if XMLName.equals(name, "sheet"), let n = a.string("name"), let r = a.string("id") { sheets.append((n, r)) }
        if XMLName.equals(name, "workbookPr"), let d = a.string("date1904") { date1904 = d == "1" || d == "true" }
    }
    func end(_ name: UnsafePointer<UInt8>) {}
    func text(_ bytes: UnsafeRawBufferPointer) {}
}

/// `xl/_rels/workbook.xml.rels`: relationship id → part path.
final class Relationships: XMLStreamHandler {
    var targets: [String: String] = [:]
    func start(_ name: UnsafePointer<UInt8>, _ a: XMLAttributes) {
        if XMLName.equals(name, "Relationship"), let id = a.string("Id"), let t = a.string("Target") { targets[id] = t }
    }
    func end(_ name: UnsafePointer<UInt8>) {}
    func text(_ bytes: UnsafeRawBufferPointer) {}
}

/// `xl/sharedStrings.xml`: the strings cells of type `s` point to, in order (rich text runs joined),
/// kept in one buffer (an array per string cost 3.4 GiB for a workbook whose strings inflate to
/// 486 MB) and capped (`limitBytes`, `limitCount`): beyond either the workbook is refused, not read.
final class SharedStrings: XMLStreamHandler {
    /// Text of all shared strings together; a real export's distinct texts are far below this.
    static let limitBytes = 128 << 20
    static let limitCount = 16_000_000

    private(set) var bytes: [UInt8] = []
    /// End offset in `bytes` of each string.
    private(set) var ends: [Int] = []
    private var start = 0
    private var inText = false, inPhonetic = false
    /// Why the strings were not all kept (a limit was passed), else nil.
    private(set) var overLimit: String?

    var count: Int { ends.count }

    func withString<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let from = i == 0 ? 0 : ends[i - 1]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[from..<ends[i]])) }
    }

    func start(_ name: UnsafePointer<UInt8>, _ a: XMLAttributes) {
        if XMLName.equals(name, "si") { bytes.removeSubrange(start...) }
        else if XMLName.equals(name, "t") { inText = !inPhonetic }
        else if XMLName.equals(name, "rPh") { inPhonetic = true }
    }
    func end(_ name: UnsafePointer<UInt8>) {
        if XMLName.equals(name, "si") {
            guard overLimit == nil else { return }
            ends.append(bytes.count)
            start = bytes.count
            if ends.count > Self.limitCount {
                overLimit = "more than \(Self.limitCount) shared strings"
            }
        } else if XMLName.equals(name, "t") { inText = false }
        else if XMLName.equals(name, "rPh") { inPhonetic = false }
    }
    func text(_ b: UnsafeRawBufferPointer) {
        guard inText, overLimit == nil else { return }
        if bytes.count + b.count > Self.limitBytes {
            overLimit = "its shared strings hold more than \(Self.limitBytes >> 20) MiB of text"
            return
        }
        bytes.append(contentsOf: b)
    }
}
