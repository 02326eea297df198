import Foundation
import HealthPipeCore

/// Turns an adapter file into a `MappedAdapter`: strict decoding first (unknown keys, wrong
/// types), then every semantic check, all reported together with file:line:column.
struct MappedSpecCompiler {
    static let defaultWithinLines = 20
    static let defaultDataRows = 3

    let spec: MappedSpec
    var nodes: SpecNodes
    let family: String
    let reservedNames: Set<String>

    /// Set by the header checks; the column checks depend on them.
    var header = MappedAdapter.HeaderMode.auto
    var headerCells: [String] = []
    var fieldCount: Int? = nil

    static func compile(document: ConfigDocument, family: String, reservedNames: Set<String>) throws -> MappedAdapter {
        let spec = try StrictNodeDecoder(document: document).decode(MappedSpec.self, from: document.root)
        var c = MappedSpecCompiler(spec: spec, nodes: SpecNodes(document: document), family: family,
                                   reservedNames: reservedNames)
        let adapter = c.build()
        try c.nodes.check()
        guard let adapter else { throw document.error(at: document.root, "the adapter is incomplete") }
        return adapter
    }

    private mutating func build() -> MappedAdapter? {
        let name = checkName()
        let description = required(spec.description, ["description"])
        let detect = checkDetect()
        let section = checkSection()
        let separator = checkSeparator()
        let time = checkTimestamp()
        let zone = checkZone()
        let subject = optionalRef(spec.subject_column, ["subject_column"])
        let sourceColumn = optionalRef(spec.source_column, ["source_column"])
        let filter = checkFilter()
        var notes: [ColumnRef] = []
        if let n = optionalRef(spec.note_column, ["note_column"]) { notes.append(n) }
        for (i, text) in (spec.note_columns ?? []).enumerated() {
            if let n = ref(text, ["note_columns", String(i)], structural: true) { notes.append(n) }
        }
        let rowType = optionalRef(spec.row_type_column, ["row_type_column"])
        let skipTypes = (spec.skip_types ?? []).map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) }
        if spec.skip_types != nil, rowType == nil {
            nodes.fail(["skip_types"], atKey: true, "skip_types names row types: name the column that holds them with row_type_column")
        }
        if skipTypes.contains(where: \.isEmpty) { nodes.fail(["skip_types"], "skip_types lists row types (values of row_type_column), none empty") }
        let values = checkColumns()
        if rowType == nil, let e = spec.columns?.entries.first(where: { $0.spec.when != nil }) {
            nodes.fail(["columns", e.key, "when"], atKey: true, "when: selects row types: name the column that holds them with row_type_column")
        }
        // Both stand in for the timestamp's own cell (`column`, or `date_column` joined with `time_column`).
        var fallback: ColumnRef? = nil, end: ColumnRef? = nil
        for (key, text) in [("fallback_column", spec.timestamp?.fallback_column), ("end_column", spec.timestamp?.end_column)] {
            guard let text else { continue }
            if spec.timestamp?.column == nil, spec.timestamp?.date_column == nil {
                nodes.fail(["timestamp", key], atKey: true, "\(key) goes with column + format or date_column + date_format")
            } else if key == "end_column" {
                end = ref(text, ["timestamp", key], structural: true)
            } else {
                fallback = ref(text, ["timestamp", key], structural: true)
            }
        }
        let decimalMark: MappedAdapter.DecimalMark
        switch spec.decimal_comma {
        case .comma?: decimalMark = .comma
        case .auto?: decimalMark = .auto
        case .point?, nil: decimalMark = .point
        }
        guard nodes.errors.isEmpty, let name, let description, let detect, let time, let values else { return nil }
        var adapter = MappedAdapter(
            name: name, summary: description, family: family, header: header, headerCells: headerCells,
            withinLines: detect.within, fieldCount: fieldCount, detectDataRows: detect.dataRows, section: section,
            separator: separator, decimal: decimalMark, time: time, timezone: zone,
            subject: subject, filter: filter, sourceName: Symbol(spec.source ?? name), sourceColumn: sourceColumn, notes: notes,
            values: values)
        adapter.rowType = rowType
        adapter.skipTypes = skipTypes
        adapter.emptyWords = (spec.empty_values ?? []).map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) }
        for (i, t) in skipTypes.enumerated() where values.contains(where: { $0.when?.contains(t) ?? false }) {
            nodes.fail(["skip_types", String(i)], "'\(String(decoding: t, as: UTF8.self))' is both read by an entry's when: and listed in skip_types")
        }
        guard nodes.errors.isEmpty else { return nil }
        adapter.timeFallback = fallback
        adapter.timeEnd = end
        return adapter
    }

    mutating func required(_ value: String?, _ path: [String]) -> String? {
        guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            nodes.fail(path, "missing required option '\(path.last!)'")
            return nil
        }
        return value
    }

    private mutating func checkName() -> String? {
        guard let name = required(spec.name, ["name"]) else { return nil }
        let ok = name.utf8.enumerated().allSatisfy { i, c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || (i > 0 && (c == 0x2D || c == 0x5F || c == 0x2E))
        }
        if !ok {
            nodes.fail(["name"], "adapter name '\(name)' must be lower-case letters, digits, '-', '_' or '.', starting with a letter or digit")
        } else if reservedNames.contains(name) {
            nodes.fail(["name"], "adapter name '\(name)' is already a built-in component; choose another name")
        }
        return name
    }

    private mutating func checkDetect() -> (within: Int, dataRows: Int)? {
        checkHeaderMode()
        guard let d = spec.detect else {
            nodes.fail(["detect"], "missing required option 'detect' (how to recognise the file, e.g. detect: { header_contains: [...] })")
            return nil
        }
        let cells = (d.header_contains ?? []).map(ColumnNames.normalize)
        if header == .none {
            if !cells.isEmpty {
                nodes.fail(["detect", "header_contains"], atKey: true, "a headerless adapter (header: none) has no header to match; use field_count and data_rows")
            }
        } else if cells.isEmpty || cells.contains(where: { ColumnNames.alternatives($0).contains("") }) {
            nodes.fail(["detect", "header_contains"], "header_contains lists the header cells that identify the file (at least one, none empty)")
        }
        headerCells = cells
        let within = d.within_lines ?? Self.defaultWithinLines
        if !(1...100_000).contains(within) { nodes.fail(["detect", "within_lines"], "within_lines must be between 1 and 100000") }
        let rows = d.data_rows ?? Self.defaultDataRows
        if !(0...1000).contains(rows) { nodes.fail(["detect", "data_rows"], "data_rows must be between 0 and 1000") }
        if header == .none, rows == 0 {
            nodes.fail(["detect", "data_rows"], "a headerless adapter is recognised by its data rows: data_rows must be at least 1")
        }
        if let n = d.field_count, !(1...10_000).contains(n) { nodes.fail(["detect", "field_count"], "field_count must be between 1 and 10000") }
        fieldCount = d.field_count
        return (within, rows)
    }

    private mutating func checkHeaderMode() {
        guard let text = spec.header?.trimmingCharacters(in: .whitespaces) else { return }
        switch text.lowercased() {
        case "auto": header = .auto
        case "none": header = .none
        default:
            if let n = Int(text), n >= 1 { header = .line(n); return }
            nodes.fail(["header"], "header is auto, none or a 1-based line number, not '\(text)'",
                       suggestion: NameSuggester.nearest(to: text, in: ["auto", "none"]))
        }
    }

    private mutating func checkSection() -> MappedAdapter.Section? {
        guard let s = spec.section else { return nil }
        let begin = (s.begin ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let end = (s.end ?? "#").trimmingCharacters(in: .whitespaces).lowercased()
        if begin.isEmpty { nodes.fail(["section", "begin"], "section needs begin: the text its first line starts with") }
        if end.isEmpty { nodes.fail(["section", "end"], "section end: must not be empty") }
        return .init(begin: begin, end: end)
    }

    private mutating func checkSeparator() -> UInt8? {
        guard let s = spec.separator else { return nil }
        switch s {
        case "auto": return nil
        case ",", ";", "|": return s.utf8.first
        case "\t", "tab", "\\t": return 0x09
        default:
            nodes.fail(["separator"], "separator is \",\", \";\", \"|\", \"\\t\" (or tab) or auto, not '\(s)'")
            return nil
        }
    }

    private mutating func checkFilter() -> RowFilter? {
        guard let f = spec.filter else { return nil }
        let column = requiredRef(f.column, ["filter", "column"])
        let values = (f.values ?? []).map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) }
        if values.isEmpty { nodes.fail(["filter", "values"], "filter needs values: the cell values of the rows to keep") }
        guard let column else { return nil }
        return RowFilter(column: column, values: values)
    }

    private mutating func checkZone() -> TimeZone? {
        guard let name = spec.timezone else { return nil }
        guard let zone = ZoneResolver.timeZone(named: name) else {
            nodes.fail(["timezone"], "unknown time zone '\(name)' (use an IANA name such as Europe/London, UTC, or an offset such as +01:00)")
            return nil
        }
        return zone
    }
}
