import HealthPipeCore

/// The adapter's content-based detection rule, applied to a file's first bytes: the section start
/// (if any) and the header lie within `within_lines`, the header holds every `header_contains`
/// cell and every referenced column, and the first `data_rows` data rows parse (timestamp and
/// numbers; `field_count` cells each when set). Headerless adapters rely on the data rows alone.
struct MappedDetector: Sendable {
    /// Below the built-in formats' 90: a hand-written adapter never overrides a dedicated parser.
    static let matchScore = 60

    let adapter: MappedAdapter

    func score(_ sniff: FileSniff) -> Int { matches(sniff) ? Self.matchScore : 0 }

    func matches(_ sniff: FileSniff) -> Bool {
        let lines = Self.lines(sniff)
        guard let start = sectionStart(lines), let (columns, delimiter, dataStart) = locateColumns(lines, from: start) else {
            return false
        }
        return dataRowsParse(lines, from: dataStart, columns, delimiter)
    }

    /// The separator of the header (or first data) line, for adapters with `separator: auto`.
    func delimiter(in sniff: FileSniff) -> UInt8? {
        let lines = Self.lines(sniff)
        return sectionStart(lines).flatMap { locateColumns(lines, from: $0)?.1 }
    }

    /// The prefix's whole lines, split once for every detector by the sniff itself.
    private static func lines(_ sniff: FileSniff) -> ArraySlice<Substring> { sniff.wholeLines }

    /// The line after the section's first line (0 without a section); nil when the section is missing.
    private func sectionStart(_ lines: ArraySlice<Substring>) -> Int? {
        guard let section = adapter.section else { return 0 }
        return lines.prefix(adapter.withinLines).firstIndex { Self.starts($0, section.begin) }.map { $0 + 1 }
    }

    /// The columns, delimiter and first data line, or nil when the header rule fails.
    private func locateColumns(_ lines: ArraySlice<Substring>, from start: Int) -> (ResolvedColumns, UInt8, Int)? {
        switch adapter.header {
        case .none:
            let first = lines[min(start, lines.count)...].first { !$0.allSatisfy(\.isWhitespace) } ?? ""
            return (.headerless(adapter), adapter.separator ?? HeaderText.sniffDelimiter(first), start)
        case .line(let n):
            guard n - 1 >= start, n - 1 < lines.count else { return nil }
            return header(lines[n - 1]).map { ($0.0, $0.1, n) }
        case .auto:
            let end = min(adapter.withinLines, lines.count)
            guard start < end else { return nil }
            for i in start..<end {
                if let (cols, delim) = header(lines[i]) { return (cols, delim, i + 1) }
            }
            return nil
        }
    }

    private func header(_ line: Substring) -> (ResolvedColumns, UInt8)? {
        let delimiter = adapter.separator ?? HeaderText.sniffDelimiter(line)
        let cells = SniffCells.split(line, delimiter: delimiter).map(HeaderText.normalize)
        guard ColumnNames.allPresent(adapter.headerCells, in: cells) else { return nil }
        guard let cols = ResolvedColumns.resolve(adapter, header: cells).columns else { return nil }
        return (cols, delimiter)
    }

    private func dataRowsParse(_ lines: ArraySlice<Substring>, from start: Int, _ columns: ResolvedColumns, _ delimiter: UInt8) -> Bool {
        var reader = MappedTimeReader(adapter.time)
        var checked = 0, i = start
        while checked < adapter.detectDataRows, i < lines.count {
            let line = lines[i]
            i += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            if let section = adapter.section, Self.starts(line, section.end) { break }
            let cells = SniffCells.split(line, delimiter: delimiter)
            if let n = adapter.fieldCount, cells.count != n { return false }
            if adapter.header == .none, cells.count <= columns.maxIndex { return false }
            if let f = columns.filter, let filter = adapter.filter {
                var cell = f < cells.count ? cells[f].trimmingCharacters(in: .whitespaces) : ""
                if !cell.withUTF8({ filter.matches(UnsafeRawBufferPointer($0)) }) { continue }
            }
            if adapter.selectsRows, let t = columns.rowType {
                var type = t < cells.count ? cells[t].trimmingCharacters(in: .whitespaces) : ""
                let listed = type.withUTF8 { b in adapter.values.contains { $0.applies(toType: UnsafeRawBufferPointer(b)) } }
                if !listed { continue }
            }
            guard rowParses(cells, columns, &reader) else { return false }
            checked += 1
        }
        // A header that matched is evidence enough for a file with no data yet; a headerless file needs a row.
        return checked > 0 || adapter.header != .none
    }

    private func rowParses(_ cells: [String], _ c: ResolvedColumns, _ reader: inout MappedTimeReader) -> Bool {
        func cell(_ i: Int) -> String { i >= 0 && i < cells.count ? cells[i] : "" }
        var date = cell(c.date), time = c.time.map(cell)
        if date.trimmingCharacters(in: .whitespaces).isEmpty, let f = c.dateFallback { date = cell(f) }
        let parsed: ParsedTimestamp? = date.withUTF8 { d in
            guard time != nil else { return reader.parse(date: UnsafeRawBufferPointer(d), time: nil) }
            return time!.withUTF8 { t in reader.parse(date: UnsafeRawBufferPointer(d), time: UnsafeRawBufferPointer(t)) }
        }
        guard parsed != nil else { return false }
        let type = c.rowType.map(cell)
        for (k, i) in c.values.enumerated() {
            let mapping = adapter.values[k]
            if mapping.eachRow { continue }
            if mapping.when != nil, var t = type {
                let reads = t.withUTF8 { mapping.applies(toType: ByteText.trim(UnsafeRawBufferPointer($0))) }
                if !reads { continue }
            }
            var v = cell(i)
            let ok = v.withUTF8 { b -> Bool in
                let raw = ByteText.trim(UnsafeRawBufferPointer(b))
                return raw.isEmpty || MappedNumbers.double(raw, adapter.decimal) != nil
                    || mapping.high?.matches(raw) == true || mapping.low?.matches(raw) == true
            }
            if !ok { return false }
        }
        return true
    }

    /// The line, trimmed and lower-cased, begins with `marker` (already lower-cased).
    static func starts(_ line: Substring, _ marker: String) -> Bool {
        line.drop(while: { $0 == " " || $0 == "\t" }).lowercased().hasPrefix(marker)
    }
}
