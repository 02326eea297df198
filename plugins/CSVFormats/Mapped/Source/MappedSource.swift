import HealthPipeCore

/// Reads one file as its YAML adapter describes — a CSV, or the same table saved as an Excel
/// workbook (`MappedSource+Workbook`): layout (section, header) from `MappedLayout`, records from
/// `MappedRowMapper`, bookkeeping from `CSVFileRun`.
final class MappedSource: Source, InputDescribing {
    let adapter: MappedAdapter
    /// `zone` is the stage's or run's zone, else the adapter's default.
    let options: CSVCommonOptions
    let workbook: Bool
    var inputPaths: [String] { [options.path] }

    init(adapter: MappedAdapter, options: CSVCommonOptions, workbook: Bool) {
        self.adapter = adapter
        self.options = options
        self.workbook = workbook
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        if workbook { try runWorkbook(context: context, emit: emit) } else { try runText(context: context, emit: emit) }
    }

    private func runText(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let path = options.path
        let input = try CSVInput(path: path)
        var layout = MappedLayout(adapter: adapter, path: path)
        var mapper = MappedRowMapper(adapter: adapter, subject: options.subject, file: Symbol(path))
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: path, format: adapter.name)
        let delimiter = adapter.separator ?? MappedDetector(adapter: adapter).delimiter(in: input.head) ?? UInt8(ascii: ",")
        try CSVFileRun(input: input, format: adapter.name, context: context).run(delimiter: delimiter, emit: emit, handle: { row, out in
            guard try layout.isDataRow(row) else { return }
            if let width = layout.headerWidth, row.count > width { throw CSVFileRun.Reject.wider(row.count, than: width) }
            if !mapper.hasColumns, let columns = layout.columns { mapper.use(columns) }  // once, after the header
            try mapper.map(row, &placer, &out, emit)
        }, rows: { mapper.tally })
        try layout.finish()
    }
}
