/// The one way HealthPipe writes CSV text (an XLSX row as text: the sniff that detection reads, a
/// rejected row's raw text in the quarantine): a field holding the separator, a quote or any control
/// character (CR, LF, ESC, NUL …) is quoted, its quotes doubled, so the row reads back as the same
/// cells. Control characters stay data here; the kind that carries the CSV shows them by its own
/// rule (JSON escapes them in the quarantine, the terminal shows them as `\u{…}`).
public enum CSVText {
    /// The cells as one line (no line end).
    public static func line(_ cells: [String], separator: UInt8 = UInt8(ascii: ",")) -> String {
        cells.map { field($0, separator: separator) }.joined(separator: String(UnicodeScalar(separator)))
    }

    /// A cell as a CSV field: quoted when it must be.
    public static func field(_ cell: String, separator: UInt8 = UInt8(ascii: ",")) -> String {
        guard cell.utf8.contains(where: { $0 == separator || $0 == UInt8(ascii: "\"") || $0 < 0x20 || $0 == 0x7F }) else { return cell }
        var out = "\""
        for c in cell.unicodeScalars {
            if c == "\"" { out += "\"\"" } else { out.unicodeScalars.append(c) }
        }
        return out + "\""
    }
}
