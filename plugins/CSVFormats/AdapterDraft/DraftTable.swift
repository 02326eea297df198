import HealthPipeCore

/// An unknown CSV's first lines read as a table: the separator, the header line (the first line
/// followed by rows of the same width that hold numbers) and up to `sampleRows` data rows.
struct DraftTable {
    static let searchedLines = 40
    static let sampleRows = 200

    var delimiter: UInt8
    /// 0-based line of the header in the file.
    var headerLine: Int
    /// Header cells as written (trimmed, BOM removed).
    var header: [String]
    /// Header cells normalized (lower-case) for matching words.
    var normalized: [String]
    var rows: [[String]]

    init?(_ sniff: FileSniff) {
        var lines = sniff.lines(Self.searchedLines + Self.sampleRows)
        // A prefix cut mid-line would give a short last row.
        if !sniff.text.hasSuffix("\n"), sniff.prefix.count >= FileSniff.defaultLimit / 2, lines.count > 1 { lines.removeLast() }
        for i in 0..<min(Self.searchedLines, lines.count) {
            let d = HeaderText.sniffDelimiter(lines[i])
            let cells = SniffCells.split(lines[i], delimiter: d)
            guard cells.count >= 2, cells.filter({ Self.isNumber($0) }).count * 2 < cells.count else { continue }
            let following = lines[(i + 1)...].filter { !$0.allSatisfy(\.isWhitespace) }.prefix(Self.sampleRows)
                .map { SniffCells.split($0, delimiter: d) }
            let same = following.prefix(5).filter { $0.count == cells.count }
            guard same.count >= min(3, following.count), !same.isEmpty,
                  same.contains(where: { row in row.contains { Self.isNumber($0) } }) else { continue }
            delimiter = d
            headerLine = i
            header = cells.map { $0.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces) }
            normalized = cells.map(HeaderText.normalize)
            rows = following.filter { $0.count == cells.count }
            return
        }
        return nil
    }

    /// `5`, `-3.2`, `5,4` (a decimal comma).
    static func isNumber(_ cell: String) -> Bool { number(cell) != nil }

    static func number(_ cell: String) -> Double? {
        let t = cell.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count < 20 else { return nil }
        return Double(t) ?? Double(t.replacingOccurrences(of: ",", with: "."))
    }

    func values(_ c: Int) -> [String] { DraftTimestamp.column(c, rows) }

    /// The column's non-empty cells as numbers; nil when any of them is not a number.
    func numbers(_ c: Int) -> [Double]? {
        let cells = values(c)
        let parsed = cells.compactMap(Self.number)
        return parsed.count == cells.count && !parsed.isEmpty ? parsed : nil
    }

    /// True when numbers in the file are written with a decimal comma (`5,4` in a `;` file).
    var decimalComma: Bool {
        delimiter != UInt8(ascii: ",") && rows.contains { row in
            row.contains { cell in cell.contains(",") && Double(cell.replacingOccurrences(of: ",", with: ".")) != nil }
        }
    }
}
