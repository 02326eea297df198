import HealthPipeCore

/// The LibreView header among a file's first lines: its line, delimiter and columns, found by its
/// words or by structure. Both the detector and the source use it, so a file detected by structure
/// is read with the same columns.
struct LibreViewHeader {
    var delimiter: UInt8
    var columns: LibreViewColumns
    /// The header's cells as the sniff split them, to recognise the header row when reading.
    var cells: [String]
    var byStructure: Bool

    static func find(_ sniff: FileSniff) -> LibreViewHeader? {
        let lines = Array(sniff.wholeLines.prefix(LibreViewStructure.sampleLines + LibreViewColumns.headerSearchRows))
        for (i, line) in lines.prefix(LibreViewColumns.headerSearchRows).enumerated() {
            let d = HeaderText.sniffDelimiter(line)
            let cells = SniffCells.split(line, delimiter: d)
            if let c = LibreViewColumns(header: cells) {
                return LibreViewHeader(delimiter: d, columns: c, cells: cells, byStructure: false)
            }
            if let c = LibreViewStructure.columns(header: cells, rows: lines[(i + 1)...], delimiter: d) {
                return LibreViewHeader(delimiter: d, columns: c, cells: cells, byStructure: true)
            }
        }
        return nil
    }

    /// The columns for `row` when it is a LibreView header: by its words, or when it is the header
    /// this file was detected by.
    static func columns(_ row: [String], found: LibreViewHeader?) -> LibreViewColumns? {
        if let c = LibreViewColumns(header: row) { return c }
        guard let found, found.byStructure, row.count == found.cells.count,
              zip(row, found.cells).allSatisfy({ HeaderText.normalize($0) == HeaderText.normalize($1) }) else { return nil }
        return found.columns
    }
}

/// Reading a LibreView header whose words are in no known language: LibreView writes the same
/// columns in the same order in every language, so a header as wide as a known layout, followed by
/// rows with a date-time in the 3rd column and a record type 0–6 in the 4th, is mapped by position.
enum LibreViewStructure {
    /// How many lines after a candidate header are looked at (detection runs on a sniff: stay small).
    static let sampleLines = 40

    static func columns(header: [String], rows: ArraySlice<Substring>, delimiter: UInt8) -> LibreViewColumns? {
        guard let layout = LibreViewVocabulary.layouts.first(where: { $0.count == header.count }),
              looksLikeHeader(header) else { return nil }
        var seen = 0, serials = 0
        var decimals = 0, wholes = 0
        for line in rows.prefix(sampleLines) where !line.allSatisfy({ $0 == "\r" || $0 == " " }) {
            let cells = SniffCells.split(line, delimiter: delimiter)
            guard cells.count == header.count, let type = Int(cells[3].trimmingCharacters(in: .whitespaces)),
                  (0...6).contains(type), isDateTime(cells[2]) else { return nil }
            seen += 1
            if !cells[1].trimmingCharacters(in: .whitespaces).isEmpty { serials += 1 }
            // A reading row holds a glucose value in its column (or the reader's LO/HI).
            if type <= 1, !cells[4 + type].isEmpty, !isGlucose(cells[4 + type]) { return nil }
            // The glucose unit, where the header names none: mmol/L readings have a decimal part.
            for i in [4, 5] where !cells[i].isEmpty {
                if cells[i].contains(".") || cells[i].contains(",") { decimals += 1 } else if Double(cells[i]) != nil { wholes += 1 }
            }
        }
        // Every LibreView row names the sensor or reader it came from.
        guard seen > 0, serials > 0 else { return nil }
        return LibreViewColumns(roles: layout, header: header, unitless: decimals > wholes ? .mmol : .mgdl)
    }

    /// Header cells are words: none empty where a reading column is expected, none a number or a date.
    private static func looksLikeHeader(_ cells: [String]) -> Bool {
        cells.prefix(6).allSatisfy { c in
            let t = c.trimmingCharacters(in: .whitespaces)
            return !t.isEmpty && Double(t) == nil && !isDateTime(t)
        }
    }

    /// A number from 1 to 999 (a reading in mmol/L or mg/dL), or `LO`/`HI`.
    private static func isGlucose(_ cell: String) -> Bool {
        let t = cell.trimmingCharacters(in: .whitespaces)
        if ["lo", "hi", "low", "high"].contains(t.lowercased()) { return true }
        guard let v = Double(t.replacingOccurrences(of: ",", with: ".")) else { return false }
        return (1...999).contains(v)
    }

    private static func isDateTime(_ cell: String) -> Bool {
        var text = cell.trimmingCharacters(in: .whitespaces)
        return text.withUTF8 { b in
            let raw = UnsafeRawBufferPointer(b)
            return NumericDateTime.localSeconds(raw, order: .dmy) != nil || NumericDateTime.localSeconds(raw, order: .mdy) != nil
        }
    }
}
