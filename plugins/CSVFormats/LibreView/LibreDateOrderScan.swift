import HealthPipeCore

/// LibreView writes `DD-MM-YYYY` or `MM-DD-YYYY` depending on the account's locale and says nothing
/// about which. A single row cannot tell (`04-05-2024`), so the order is decided over the whole file
/// before anything is imported: a first group above 12 proves DD-MM, a second group above 12 proves
/// MM-DD. When rows prove both, the order most rows prove wins and the rows that contradict it are
/// quarantined one by one (their dates do not parse in that order); an even split refuses the file.
struct LibreDateOrderScan {
    struct Evidence {
        var line: Int64
        var text: String
    }

    private(set) var dayFirst: Evidence?
    private(set) var monthFirst: Evidence?
    private(set) var dayFirstRows = 0
    private(set) var monthFirstRows = 0
    /// Rows whose date is not year-first, so the order matters at all.
    private(set) var undecidedRows = 0

    mutating func observe(_ field: UnsafeRawBufferPointer, line: Int64) {
        let b = ByteText.trim(field)
        guard let g = NumericDateTime.dateGroups(b), g.firstDigits <= 2 else { return }
        undecidedRows += 1
        if g.first > 12 {
            dayFirstRows += 1
            if dayFirst == nil { dayFirst = Evidence(line: line, text: b.echo) }
        }
        if g.second > 12 {
            monthFirstRows += 1
            if monthFirst == nil { monthFirst = Evidence(line: line, text: b.echo) }
        }
    }

    /// Reads the input's timestamp column once (no records, no progress). Rethrows `ReadInterrupted`.
    static func scan(_ input: CSVInput, header found: LibreViewHeader?) throws -> LibreDateOrderScan {
        let reader = CSVRowReader(input: input.input, options: .init(delimiter: found?.delimiter ?? UInt8(ascii: ",")))
        var scan = LibreDateOrderScan()
        var columns: LibreViewColumns?
        var rows = 0
        do {
            try reader.forEachRow { row in
                rows += 1
                if let c = columns {
                    scan.observe(row.field(c.timestamp), line: row.line)
                } else if rows <= LibreViewColumns.headerSearchRows, row.problem == nil {
                    columns = LibreViewHeader.columns(row.strings(), found: found)
                } else {
                    throw StopReading()  // not LibreView: the import pass reports it
                }
            }
        } catch is StopReading {}
        return scan
    }

    /// Scans the file at `path` and decides its order.
    static func infer(path: String, configured: DateOrder?) throws -> DateOrder {
        let input = try CSVInput(path: path)
        return try scan(input, header: LibreViewHeader.find(input.head)).decide(path: path, configured: configured)
    }

    func decide(path: String, configured: DateOrder?) throws -> DateOrder {
        switch (dayFirst, monthFirst) {
        case let (d?, m?):
            if let configured { return configured }
            if dayFirstRows > monthFirstRows { return .dmy }
            if monthFirstRows > dayFirstRows { return .mdy }
            throw InputError(file: path, reason: "LibreView dates disagree on day/month order as often one way as the other: "
                + "line \(d.line) '\(d.text)' can only be DD-MM-YYYY but line \(m.line) '\(m.text)' can only be MM-DD-YYYY; "
                + "set 'date_order: dmy' or 'date_order: mdy' and the rows that do not fit will be quarantined")
        case let (d?, nil):
            // Importing with the wrong order would silently swap day and month wherever both are ≤ 12.
            if configured == .mdy { throw contradiction(path, "mdy", d, "DD-MM-YYYY") }
            return .dmy
        case let (nil, m?):
            if configured == .dmy { throw contradiction(path, "dmy", m, "MM-DD-YYYY") }
            return .mdy
        case (nil, nil):
            if let configured { return configured }
            // Only year-first dates (or none at all): the order is never used.
            if undecidedRows == 0 { return .dmy }
            throw InputError(file: path, reason: "cannot tell whether LibreView dates are DD-MM-YYYY or MM-DD-YYYY: "
                + "no day above 12 in \(undecidedRows) rows; set 'date_order: dmy' or 'date_order: mdy'")
        }
    }

    /// What the run report says when some rows contradict the chosen order (they are quarantined).
    func minorityNote(chosen: DateOrder) -> String? {
        guard let d = dayFirst, let m = monthFirst else { return nil }
        let (count, e, layout) = chosen == .dmy ? (monthFirstRows, m, "MM-DD-YYYY") : (dayFirstRows, d, "DD-MM-YYYY")
        return "dates are read as \(chosen == .dmy ? "DD-MM-YYYY" : "MM-DD-YYYY") (most rows prove it); \(count) row(s) can only be "
            + "\(layout) (first: line \(e.line) '\(e.text)') and are quarantined"
    }

    private func contradiction(_ path: String, _ configured: String, _ e: Evidence, _ layout: String) -> InputError {
        InputError(file: path, line: e.line, reason: "date_order is \(configured) but '\(e.text)' can only be \(layout); "
                   + "remove date_order to infer it, or fix the setting")
    }
}
