import HealthPipeCore

/// Follows a file's layout row by row: the section start, the header (found by the adapter's
/// rule) and the data rows up to the section end. Says which rows are data and where their
/// columns are; a file that never shows its section or header is refused whole.
struct MappedLayout {
    private enum Phase { case seekingSection, seekingHeader, data, done }

    let adapter: MappedAdapter
    let path: String
    private var phase: Phase
    /// Known once the header is read (at once for headerless files).
    private(set) var columns: ResolvedColumns?
    /// Cells in the header row (nil for headerless files).
    private(set) var headerWidth: Int?

    init(adapter: MappedAdapter, path: String) {
        self.adapter = adapter
        self.path = path
        if adapter.section != nil { phase = .seekingSection } else { phase = adapter.header == .none ? .data : .seekingHeader }
        columns = adapter.header == .none ? .headerless(adapter) : nil
    }

    /// True for data rows; false for preamble, section markers, the header, blank rows and
    /// anything after the section.
    mutating func isDataRow<Row: TableRow>(_ row: Row) throws -> Bool {
        switch phase {
        case .done:
            return false
        case .seekingSection:
            if Self.isMarker(row, adapter.section!.begin) {
                phase = adapter.header == .none ? .data : .seekingHeader
            } else if row.line >= adapter.withinLines {
                throw refuse(row.line, "no line beginning with '\(adapter.section!.begin)' in the first \(adapter.withinLines) lines")
            }
            return false
        case .seekingHeader:
            if let s = adapter.section, Self.isMarker(row, s.end) {
                throw refuse(row.line, "the section ends before its header")
            }
            try seekHeader(row)
            return false
        case .data:
            if let s = adapter.section, Self.isMarker(row, s.end) {
                phase = .done
                return false
            }
            return !row.isBlank
        }
    }

    /// Called after the last row: a file that never reached its data is not this format.
    func finish() throws {
        switch phase {
        case .seekingSection: throw refuse(nil, "no line beginning with '\(adapter.section!.begin)'")
        case .seekingHeader: throw refuse(nil, "no header with \(headerList)")
        case .data, .done: return
        }
    }

    private mutating func seekHeader<Row: TableRow>(_ row: Row) throws {
        if case .line(let n) = adapter.header {
            guard row.line >= n else { return }
            try accept(row, cells: row.strings().map(HeaderText.normalize))
            return
        }
        if !row.isBlank {
            let cells = row.strings().map(HeaderText.normalize)
            if ColumnNames.allPresent(adapter.headerCells, in: cells) {
                try accept(row, cells: cells)
                return
            }
        }
        if row.line >= adapter.withinLines {
            throw refuse(row.line, "no header with \(headerList) in the first \(adapter.withinLines) lines")
        }
    }

    private mutating func accept<Row: TableRow>(_ row: Row, cells: [String]) throws {
        let (cols, missing) = ResolvedColumns.resolve(adapter, header: cells)
        guard let cols else {
            throw refuse(row.line, "the header has no column " + missing.map { "'\($0)'" }.joined(separator: ", ")
                         + " (header: " + EchoText.cap(cells.joined(separator: ", ")) + ")")
        }
        columns = cols
        headerWidth = cells.count
        phase = .data
    }

    private var headerList: String { adapter.headerCells.map { "'\($0)'" }.joined(separator: ", ") }

    private func refuse(_ line: Int64?, _ reason: String) -> InputError {
        InputError(file: path, line: line, reason: "not a \(adapter.name) file: \(reason)")
    }

    /// The row's first cell starts with the marker: a cheap first-byte test, then the raw text
    /// (a marker may contain the separator, as in `# TREATMENTS (Insulin, Carbs, Exercise)`).
    static func isMarker<Row: TableRow>(_ row: Row, _ marker: String) -> Bool {
        let first = row.trimmed(0)
        guard let m = marker.utf8.first, first.count > 0, lower(first[0]) == m else { return false }
        var raw = Substring(row.rawText)
        while let c = raw.first, c == " " || c == "\t" || c == "\"" { raw = raw.dropFirst() }
        return raw.lowercased().hasPrefix(marker)
    }

    @inline(__always)
    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}
