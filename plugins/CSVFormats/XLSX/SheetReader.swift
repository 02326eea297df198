import Foundation
import HealthPipeCore

/// Streams a worksheet's `<row>`s as `XLSXRow`s: shared strings resolved, inline strings read,
/// numbers in date-styled cells turned into `YYYY-MM-DDTHH:MM:SS` text, other values as written.
/// Cells may be sparse (`r="C7"`): missing cells are empty, so columns keep their positions.
final class SheetReader: XMLStreamHandler {
    private let package: XLSXPackage
    private let onRow: (inout XLSXRow) throws -> Void
    private(set) var failure: Error?
    private(set) var rows: Int64 = 0

    private var row = XLSXRow()
    private var cellColumn = 0, nextColumn = 0
    private var cellType = CellType.number, cellStyle = 0
    private var value: [UInt8] = []
    private var collecting = false

    enum CellType { case number, shared, inline, string, bool, error }

    init(package: XLSXPackage, onRow: @escaping (inout XLSXRow) throws -> Void) {
        self.package = package
        self.onRow = onRow
        value.reserveCapacity(64)
    }

    func start(_ name: UnsafePointer<UInt8>, _ a: XMLAttributes) {
        guard failure == nil else { return }
        if XMLName.equals(name, "c") {
            cellColumn = nextColumn
            cellType = .number
            cellStyle = 0
            for i in 0..<a.count {
                let n = a.name(i), v = a.value(i)
                if XMLName.equals(n, "r"), let c = Self.column(of: v) { cellColumn = c }
                else if XMLName.equals(n, "t") { cellType = Self.type(v) }
                else if XMLName.equals(n, "s") { cellStyle = Int(String(decoding: v, as: UTF8.self)) ?? 0 }
            }
            nextColumn = cellColumn + 1
            value.removeAll(keepingCapacity: true)
        } else if XMLName.equals(name, "v") || XMLName.equals(name, "t") {
            collecting = true
        } else if XMLName.equals(name, "row") {
            row.reset(line: rows + 1)
            for i in 0..<a.count where XMLName.equals(a.name(i), "r") {
                if let r = Int64(String(decoding: a.value(i), as: UTF8.self)) { row.reset(line: r) }
            }
            nextColumn = 0
        }
    }

    func end(_ name: UnsafePointer<UInt8>) {
        guard failure == nil else { return }
        if XMLName.equals(name, "v") || XMLName.equals(name, "t") {
            collecting = false
        } else if XMLName.equals(name, "c") {
            finishCell()
        } else if XMLName.equals(name, "row") {
            rows += 1
            do { try onRow(&row) } catch { failure = error }
        }
    }

    func text(_ bytes: UnsafeRawBufferPointer) { if collecting { value.append(contentsOf: bytes) } }

    private func finishCell() {
        switch cellType {
        case .shared:
            let index = Int(String(decoding: value, as: UTF8.self)) ?? -1
            if index >= 0 && index < package.sharedStrings.count {
                package.sharedStrings.withString(index) { row.set(cellColumn, $0) }
            } else if !package.hasSharedStrings {
                // No strings at all: every text cell would be its index number; nothing is readable.
                failure = InputError(file: package.path, reason: "row \(row.line): a cell refers to shared string \(EchoText.quote(value)), "
                                     + "but xl/sharedStrings.xml is missing: the workbook is damaged")
            } else {
                // A cell pointing past the strings: its text is lost, so the row is refused with the
                // reason (the reference kept as its raw text); the workbook's other rows still land.
                if row.problem == nil {
                    row.problem = "cell \(Self.columnName(cellColumn))\(row.line) refers to shared string \(EchoText.quote(value)), but the "
                        + "workbook has \(package.sharedStrings.count) shared strings: the cell's text is lost"
                }
                row.set(cellColumn, value)
            }
        case .number:
            if package.styles.isDateStyle(cellStyle), let serial = Double(String(decoding: value, as: UTF8.self)),
               let text = ExcelDate.text(serial: serial, date1904: package.date1904) {
                row.set(cellColumn, Array(text.utf8))
            } else {
                row.set(cellColumn, value)
            }
        case .bool:
            row.set(cellColumn, value == [0x31] ? Self.trueText : Self.falseText)
        case .inline, .string, .error:
            row.set(cellColumn, value)
        }
    }

    static let trueText = Array("TRUE".utf8), falseText = Array("FALSE".utf8)

    /// 27 (0-based) → `AB`.
    static func columnName(_ column: Int) -> String {
        var c = column + 1, name = ""
        while c > 0 {
            let r = (c - 1) % 26
            name = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(r))) + name
            c = (c - 1) / 26
        }
        return name
    }

    /// `AB12` → 27 (0-based column).
    static func column(of ref: UnsafeRawBufferPointer) -> Int? {
        var c = 0, letters = 0
        for b in ref {
            let u = b | 0x20
            guard u >= UInt8(ascii: "a"), u <= UInt8(ascii: "z") else { break }
            c = c * 26 + Int(u - UInt8(ascii: "a") + 1)
            letters += 1
        }
        return letters > 0 && letters <= 3 ? c - 1 : nil
    }

    static func type(_ v: UnsafeRawBufferPointer) -> CellType {
        switch String(decoding: v, as: UTF8.self) {
        case "s": return .shared
        case "inlineStr": return .inline
        case "str": return .string
        case "b": return .bool
        case "e": return .error
        default: return .number
        }
    }
}

/// One worksheet row as a `TableRow`: cell bytes in one arena, empty where the sheet has no cell.
final class XLSXRow: TableRow {
    private(set) var line: Int64 = 0
    private var arena: UnsafeMutablePointer<UInt8>
    private var capacity = 4096
    private var used = 0
    private var offsets: [Int] = []
    private var lengths: [Int] = []

    init() { arena = .allocate(capacity: capacity) }
    deinit { arena.deallocate() }

    var count: Int { offsets.count }
    /// Why the row cannot be read as written (a cell's shared string does not exist); nil when it can.
    var problem: String?

    /// Every reader of a sheet's rows calls this before mapping a row: a damaged row is refused
    /// (quarantined with the reason), never mapped with a cell's text missing.
    func refuseIfDamaged() throws {
        if let problem { throw CSVFileRun.Reject(problem) }
    }

    func reset(line: Int64) {
        self.line = line
        problem = nil
        used = 0
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
    }

    /// Sets cell `column` (columns before it that have no cell stay empty).
    func set(_ column: Int, _ bytes: UnsafeRawBufferPointer) {
        guard column < 16_384 else { return }  // Excel's last column is XFD
        while offsets.count <= column {
            offsets.append(used)
            lengths.append(0)
        }
        if used + bytes.count > capacity {
            var cap = capacity * 2
            while cap < used + bytes.count { cap *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
            bigger.update(from: arena, count: used)
            arena.deallocate()
            arena = bigger
            capacity = cap
        }
        if let base = bytes.baseAddress, bytes.count > 0 {
            (arena + used).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        offsets[column] = used
        lengths[column] = bytes.count
        used += bytes.count
    }

    func set(_ column: Int, _ bytes: [UInt8]) { bytes.withUnsafeBytes { set(column, $0) } }

    func trimmed(_ i: Int) -> UnsafeRawBufferPointer {
        guard i < count, lengths[i] > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return ByteText.trim(UnsafeRawBufferPointer(start: arena + offsets[i], count: lengths[i]))
    }

    func isEmpty(_ i: Int) -> Bool { trimmed(i).isEmpty }
    func strings() -> [String] { (0..<count).map { String(decoding: trimmed($0), as: UTF8.self) } }
    var isBlank: Bool { (0..<count).allSatisfy { isEmpty($0) } }

    /// The row as CSV text for error reports (`CSVText`: a cell with a comma or a quote stays one cell).
    var rawText: String { CSVText.line(strings()) }
}
