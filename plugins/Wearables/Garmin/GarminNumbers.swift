import CSVFormats
import HealthPipeCore

/// How Garmin Connect writes numbers and durations in `Activities.csv`. The header's language does
/// not decide it: the account's number format does, one for the whole file (checked on 6,579 rows of
/// real exports in nine languages): `1,234.5` (`.` decimal, `,` thousands — most accounts, whatever
/// their language) or `1.234,5` (an English export with `"3,40"` km, `"2.932"` steps, `00:01:39,6`).
/// `--` (`--:--:--` for a duration, `NaN`/`00:NaN:NaN` in some exports) is "no value"; durations are `h:mm:ss` or `m:ss` with an optional fraction of a second.
struct GarminNumbers {
    /// The decimal mark; the other of `.` and `,` groups thousands.
    let decimal: UInt8
    var grouping: UInt8 { decimal == UInt8(ascii: ".") ? UInt8(ascii: ",") : UInt8(ascii: ".") }

    static let point = GarminNumbers(decimal: UInt8(ascii: "."))
    static let comma = GarminNumbers(decimal: UInt8(ascii: ","))

    /// The file's number format, told by its first rows (the sniffed head): a mark followed by other
    /// than three digits (`12.23`, `3,40`, `39,6` in `00:01:39,6`) is the decimal mark, and so is the
    /// later of two marks (`1.234,5`). Most rows tell (a distance has two decimals); when no row of the
    /// head does, Garmin's default `1,234.5`.
    static func of(_ head: FileSniff) -> GarminNumbers {
        var votes = (point: 0, comma: 0)
        for line in head.wholeLines.dropFirst().prefix(200) {
            // cells split at commas outside quotes (`"3,40"` is one cell)
            var cells: [Substring] = [], start = line.startIndex, quoted = false
            for i in line.indices {
                if line[i] == "\"" { quoted.toggle() } else if line[i] == ",", !quoted { cells.append(line[start..<i]); start = line.index(after: i) }
            }
            cells.append(line[start...])
            for cell in cells {
                switch decimalMark(cell.utf8.filter { $0 != UInt8(ascii: "\"") }) {
                case UInt8(ascii: ".")?: votes.point += 1
                case UInt8(ascii: ",")?: votes.comma += 1
                default: break
                }
            }
            if votes.point + votes.comma >= 8 { break }
        }
        return votes.comma > votes.point ? .comma : .point
    }

    /// The mark a number or duration cell shows to be the decimal one; nil when it shows none.
    static func decimalMark(_ b: [UInt8]) -> UInt8? {
        var body = b[...]
        if let colon = body.lastIndex(of: UInt8(ascii: ":")) { body = body[(colon + 1)...] }  // a duration's seconds
        guard !body.isEmpty, body.allSatisfy({ $0 &- 0x30 < 10 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "-") }),
              let last = body.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }) else { return nil }
        let after = body.distance(from: body.index(after: last), to: body.endIndex)
        let other = body[last] == UInt8(ascii: ".") ? UInt8(ascii: ",") : UInt8(ascii: ".")
        let both = body[..<last].contains(other)
        return after != 3 || both ? body[last] : nil
    }

    /// A cell's number; nil for `--` or an empty cell; throws for anything else not in the file's
    /// format (`5,02` in a `1,234.5` file is refused, never read as 502).
    /// `whole` tells a number written without a decimal mark (a distance in metres or yards).
    func number(_ raw: UnsafeRawBufferPointer, _ column: String) throws -> (value: Double, whole: Bool)? {
        let b = ByteText.trim(raw)
        if Self.isEmpty(b) { return nil }
        let what = decimal == UInt8(ascii: ".") ? "a number in this file's format (1,234.5 or --)" : "a number in this file's format (1.234,5 or --)"
        var i = b[0] == UInt8(ascii: "-") ? 1 : 0
        var digits = 0, group = 0, grouped = false
        while i < b.count, b[i] != decimal {
            if b[i] &- 0x30 < 10 {
                digits += 1; group += 1
            } else if b[i] == grouping, digits > 0, grouped ? group == 3 : group <= 3 {
                grouped = true; group = 0
            } else { throw Bad(column, b, what) }
            i += 1
        }
        let whole = i == b.count
        guard digits > 0, !grouped || group == 3, whole || i + 1 < b.count else { throw Bad(column, b, what) }
        let point = decimal
        guard let value = Self.withoutGrouping(b, grouping, { DecimalText.double($0, point: point) }) else { throw Bad(column, b, what) }
        return (value, whole)
    }

    /// A duration in seconds (`h:mm:ss` or `m:ss`, the seconds with an optional fraction); nil for `--`
    /// or an empty cell; throws for anything else.
    func seconds(_ raw: UnsafeRawBufferPointer, _ column: String) throws -> Double? {
        let b = ByteText.trim(raw)
        if Self.isEmpty(b) { return nil }
        let what = "a duration as Garmin writes them (h:mm:ss or m:ss, --)"
        var total = 0, part = 0, partDigits = 0, parts = 0, i = 0
        while i < b.count, b[i] != decimal {
            if b[i] &- 0x30 < 10 {
                part = part * 10 + Int(b[i] &- 0x30); partDigits += 1
                guard partDigits <= 6 else { throw Bad(column, b, what) }
            } else if b[i] == UInt8(ascii: ":"), partDigits > 0, parts == 0 || (partDigits == 2 && part < 60), parts < 2 {
                total = total * 60 + part; part = 0; partDigits = 0; parts += 1
            } else { throw Bad(column, b, what) }
            i += 1
        }
        guard parts >= 1, partDigits == 2, part < 60 else { throw Bad(column, b, what) }
        var fraction = 0.0
        if i < b.count {  // ".4" or ",4": the seconds' fraction
            guard i + 1 < b.count, let f = DecimalText.double(UnsafeRawBufferPointer(rebasing: b[i...]), point: decimal), f < 1 else {
                throw Bad(column, b, what)
            }
            fraction = f
        }
        return Double(total * 60 + part) + fraction
    }

    /// Garmin's "no value": an empty cell, `--`, a duration's `--:--:--`, or JavaScript's `NaN` that
    /// Connect's export writes for a whole column it cannot fill (`NaN`, `00:NaN:NaN`).
    private static func isEmpty(_ b: UnsafeRawBufferPointer) -> Bool {
        if b.isEmpty { return true }
        if b.count >= 2, b[0] == UInt8(ascii: "-"), b[1] == UInt8(ascii: "-") {
            return b.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }
        }
        let nan: [UInt8] = Array("NaN".utf8)
        var i = 0, sawNaN = false
        while i < b.count {
            if i + 3 <= b.count, b[i] == nan[0], b[i + 1] == nan[1], b[i + 2] == nan[2] { sawNaN = true; i += 3; continue }
            guard b[i] &- 0x30 < 10 || b[i] == UInt8(ascii: ":") else { return false }
            i += 1
        }
        return sawNaN
    }

    /// The cell without its group separators, handed to `body`.
    private static func withoutGrouping<T>(_ b: UnsafeRawBufferPointer, _ mark: UInt8, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: b.count) { buf in
            var n = 0
            for c in b where c != mark { buf[n] = c; n += 1 }
            return body(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buf)[0..<n]))
        }
    }

    struct Bad: Error, CustomStringConvertible {
        let description: String
        init(_ column: String, _ b: UnsafeRawBufferPointer, _ what: String) {
            description = "\(column) '\(EchoText.quote(b))' is not \(what)"
        }
    }
}
