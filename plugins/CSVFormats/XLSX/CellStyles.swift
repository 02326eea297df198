/// `xl/styles.xml`: which cell styles show a number as a date or time. Excel stores dates as
/// numbers (days since 1899-12-30); only the style's number format tells a date from a number.
final class CellStyles: XMLStreamHandler {
    /// Per cell style (`s` attribute of a cell): whether its number format is a date/time.
    private(set) var isDate: [Bool] = []
    private var customFormats: [Int: String] = [:]
    private var inCellXfs = false

    /// Built-in number formats that are dates or times (ECMA-376 Part 1, 18.8.30).
    static let builtInDates: Set<Int> = [14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]

    func start(_ name: UnsafePointer<UInt8>, _ a: XMLAttributes) {
        if XMLName.equals(name, "numFmt"), let id = a.string("numFmtId").flatMap({ Int($0) }), let code = a.string("formatCode") {
            customFormats[id] = code
        } else if XMLName.equals(name, "cellXfs") {
            inCellXfs = true
        } else if inCellXfs, XMLName.equals(name, "xf") {
            let id = a.string("numFmtId").flatMap { Int($0) } ?? 0
            isDate.append(Self.builtInDates.contains(id) || customFormats[id].map(Self.isDateFormat) == true)
        }
    }

    func end(_ name: UnsafePointer<UInt8>) { if XMLName.equals(name, "cellXfs") { inCellXfs = false } }
    func text(_ bytes: UnsafeRawBufferPointer) {}

    func isDateStyle(_ index: Int) -> Bool { index >= 0 && index < isDate.count && isDate[index] }

    /// A custom format shows a date when it has day/month/year/hour/second tokens outside quoted
    /// text and `[…]` sections (`yyyy-mm-dd hh:mm:ss`, `[$-409]d/m/yy`, but not `0.0" mmol"`).
    static func isDateFormat(_ code: String) -> Bool {
        var quoted = false, bracket = false
        for ch in code.lowercased() {
            switch ch {
            case "\"": quoted.toggle()
            case "[": if !quoted { bracket = true }
            case "]": if !quoted { bracket = false }
            case "y", "m", "d", "h", "s": if !quoted && !bracket { return true }
            default: break
            }
        }
        return false
    }
}

/// Excel date serials → civil date-time text (`2023-05-01T08:04:12`), the form Clarity's CSV writes.
enum ExcelDate {
    /// Days from 1970-01-01 back to each system's day 0. The 1900 system counts a 1900-02-29 that
    /// never was, so its day 0 is 1899-12-30 for every serial from 61 (1900-03-01) on.
    static let epoch1900 = CivilDate.days(year: 1899, month: 12, day: 30)
    static let epoch1904 = CivilDate.days(year: 1904, month: 1, day: 1)

    /// The serial as local wall-clock seconds since 1970, rounded to the second.
    static func seconds(serial: Double, date1904: Bool) -> Int64? {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }  // up to 9999-12-31
        let whole = serial.rounded(.down)
        var days = Int64(whole) + (date1904 ? epoch1904 : epoch1900)
        if !date1904, whole < 61 { days += 1 }  // before the phantom 1900-02-29
        let secondsOfDay = Int64(((serial - whole) * 86_400).rounded())
        return days * 86_400 + secondsOfDay
    }

    static func text(serial: Double, date1904: Bool) -> String? {
        seconds(serial: serial, date1904: date1904).map { CivilDate.isoDateTime(seconds: $0) }
    }
}

import HealthPipeCore
