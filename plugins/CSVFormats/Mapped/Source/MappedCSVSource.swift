import HealthPipeCore

/// Reads one CSV file as its YAML adapter describes: layout (section, header) from
/// `MappedLayout`, records from `MappedRowMapper`, bookkeeping from `CSVFileRun`.
final class MappedCSVSource: Source, InputDescribing {
    let adapter: MappedAdapter
    /// `zone` is the stage's or run's zone, else the adapter's default.
    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(adapter: MappedAdapter, options: CSVCommonOptions) {
        self.adapter = adapter
        self.options = options
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let path = options.path
        var layout = MappedLayout(adapter: adapter, path: path)
        var mapper = MappedRowMapper(adapter: adapter, subject: options.subject, file: Symbol(path))
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: path, format: adapter.name)
        try CSVFileRun(path: path, format: adapter.name, context: context).run(delimiter: delimiter(), emit: emit) { row, out in
            guard try layout.isDataRow(row) else { return }
            if !mapper.hasColumns, let columns = layout.columns { mapper.use(columns) }  // once, after the header
            try mapper.map(row, &placer, &out, emit)
        }
        try layout.finish()
    }

    /// The adapter's separator, else the header line's (or the first line's), judged from the file's start.
    private func delimiter() -> UInt8 {
        if let s = adapter.separator { return s }
        guard options.path != "-", let sniff = FileSniff.read(path: options.path, limit: 64 * 1024) else { return UInt8(ascii: ",") }
        return MappedDetector(adapter: adapter).delimiter(in: sniff) ?? UInt8(ascii: ",")
    }
}
