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
        let delimiter = FileSniff.read(path: options.path).flatMap(LibreViewColumns.headerDelimiter) ?? UInt8(ascii: ",")
        let order = try resolveOrder(delimiter: delimiter)
        var mapper: LibreViewRowMapper?
        var rowsBeforeHeader = 0

        let file = CSVFileRun(path: options.path, format: Self.format, context: context)
        try file.run(delimiter: delimiter, emit: emit) { row, out in
            if mapper != nil {
                try mapper!.map(row, into: &out, emit)
                return
            }
            rowsBeforeHeader += 1
            if let columns = LibreViewColumns(header: row.strings()) {
                mapper = LibreViewRowMapper(columns: columns, order: order, options: options, format: "LibreView")
            } else if rowsBeforeHeader >= LibreViewColumns.headerSearchRows {
                throw InputError(file: options.path, line: row.line, reason: "not a LibreView export: no header with 'Device "
                                 + "Timestamp' and 'Record Type' columns in the first \(LibreViewColumns.headerSearchRows) rows")
            }
        }
        if mapper == nil {
            throw InputError(file: options.path,
                             reason: "not a LibreView export: no header with 'Device Timestamp' and 'Record Type' columns")
        }
    }

    /// The day/month order: inferred over the whole file, or the configured one checked against it.
    private func resolveOrder(delimiter: UInt8) throws -> DateOrder {
        guard options.path != "-" else {
            // Standard input cannot be read twice.
            guard let dateOrder else {
                throw InputError(file: options.path, reason: "reading LibreView from standard input needs 'date_order: dmy' "
                                 + "or 'date_order: mdy' (the order is otherwise inferred from a first pass over the file)")
            }
            return dateOrder
        }
        return try LibreDateOrderScan.infer(path: options.path, delimiter: delimiter, configured: dateOrder)
    }
}
