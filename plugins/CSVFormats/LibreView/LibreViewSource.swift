import HealthPipeCore

/// FreeStyle Libre CSV export from LibreView: a 1- or 2-line preamble (the header is found by its
/// column names), mg/dL or mmol/L, DD-MM or MM-DD dates with 24- or 12-hour clocks (the order is
/// decided over the whole file or configured), `LO`/`HI` readings, and the record types 0–6.
final class LibreViewSource: Source, InputDescribing {
    static let format = "libreview"

    let options: CSVCommonOptions
    /// The configured day/month order; nil: inferred from a first pass over the file.
    let dateOrder: DateOrder?
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions, dateOrder: DateOrder?) {
        self.options = options
        self.dateOrder = dateOrder
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        // The day/month order is decided over the whole file first: a pipe is copied to a
        // temporary file so it can be read twice.
        let input = try CSVInput(path: options.path).seekable()
        let found = LibreViewHeader.find(input.head)
        let delimiter = found?.delimiter ?? UInt8(ascii: ",")
        let order: DateOrder
        do {
            let scan = try LibreDateOrderScan.scan(input, header: found)
            order = try scan.decide(path: options.path, configured: dateOrder)
            if let note = scan.minorityNote(chosen: order) { context.warn("\(options.path): \(note)") }
        } catch is ReadInterrupted { return }
        try input.rewind()
        var mapper: LibreViewRowMapper?
        var rowsBeforeHeader = 0

        let file = CSVFileRun(input: input, format: Self.format, context: context)
        try file.run(delimiter: delimiter, emit: emit) { row, out in
            if mapper != nil {
                try mapper!.map(row, into: &out, emit)
                return
            }
            rowsBeforeHeader += 1
            if let columns = LibreViewHeader.columns(row.strings(), found: found) {
                mapper = LibreViewRowMapper(columns: columns, order: order, options: options, format: "LibreView")
            } else if rowsBeforeHeader >= LibreViewColumns.headerSearchRows {
                throw InputError(file: options.path, line: row.line, reason: "not a LibreView export: no header with 'Device "
                                 + "Timestamp' and 'Record Type' columns in the first \(LibreViewColumns.headerSearchRows) rows")
            }
        } finish: { out in
            try mapper?.finish(into: &out, emit)
        } rows: {
            mapper?.tally
        }
        if mapper == nil {
            throw InputError(file: options.path,
                             reason: "not a LibreView export: no header with 'Device Timestamp' and 'Record Type' columns")
        }
    }
}
