import HealthPipeCore

/// Medtronic CareLink CSV export (Guardian Connect, MiniMed pumps): `;` separator with a decimal
/// comma (or `,` in older exports), metadata lines, sections that each start with a marker line and
/// repeat the header, separate Date and Time columns, rows newest first.
final class CareLinkSource: Source, InputDescribing {
    static let format = "medtronic-carelink"
    /// Metadata lines before the first header (5 in real files) are bounded so a wrong file fails fast.
    static let headerSearchRows = 20
    /// Preamble labels whose next cell names the device.
    static let deviceLabels: Set<String> = ["device", "pump:", "pumpe:", "pomp:"]

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let input = try CSVInput(path: options.path)
        let delimiter = Self.delimiter(input.head.lines(Self.headerSearchRows + 5))
        var source = Symbol("Medtronic CareLink")
        var devices = ByteSymbolCache()
        var mapper: CareLinkRowMapper?
        var rowsBeforeHeader = 0
        var warnedStructure = false
        var autoInsulin = false

        let file = CSVFileRun(input: input, format: Self.format, context: context)
        try file.run(delimiter: delimiter, emit: emit, handle: { row, out in
            let first = row.trimmed(0)
            // Data rows start with their Index number: the common case costs one byte test.
            if mapper != nil, let b = first.first, b &- 0x30 <= 9 {
                try mapper!.map(row, into: &out, emit)
                return
            }
            if row.isBlank { return }
            if first.starts(with: "---".utf8) {
                // Section marker `-------;Guardian Connect;Sensor;<serial>;-------`: names the device.
                if !row.isEmpty(1) { source = devices.symbol(row.trimmed(1)) }
                mapper?.source = source
                autoInsulin = CareLinkHeaderWords.autoInsulinSectionMarks.contains(HeaderText.normalize(row.string(4)))
                mapper?.autoInsulinSection = autoInsulin
                return
            }
            var structural: CareLinkColumns?
            if !CareLinkColumns.isHeader(row) {
                // A header in a language the word table does not know is read by position.
                structural = CareLinkColumns.byStructure(header: row.strings())
                if structural != nil, !warnedStructure {
                    warnedStructure = true
                    context.warn("\(options.path): header words at line \(row.line) are not in CareLink's word table; "
                                 + "columns read by position from the English layout of \(row.count) columns")
                }
            }
            if CareLinkColumns.isHeader(row) || structural != nil {
                guard let columns = structural ?? CareLinkColumns(header: row.strings()) else {
                    throw InputError(file: options.path, line: row.line,
                                     reason: "CareLink header without Date and Time columns")
                }
                if mapper == nil {
                    mapper = CareLinkRowMapper(columns: columns, source: source, decimalComma: delimiter != UInt8(ascii: ","),
                                               options: options, format: "Medtronic CareLink")
                    mapper!.autoInsulinSection = autoInsulin
                } else {
                    mapper!.columns = columns
                }
                return
            }
            if mapper != nil {
                try mapper!.map(row, into: &out, emit)
                return
            }
            // Metadata before the first header: `…;Device;Guardian Connect` or `Pump:,Paradigm 522,#665455`
            // (the "Data Export File" preamble, `Pumpe:` in German) names the device.
            let cells = row.strings()
            if let i = cells.firstIndex(where: { Self.deviceLabels.contains(HeaderText.normalize($0)) }), i + 1 < cells.count,
               !cells[i + 1].isEmpty {
                source = Symbol(cells[i + 1])
            }
            rowsBeforeHeader += 1
            if rowsBeforeHeader > Self.headerSearchRows {
                throw InputError(file: options.path, line: row.line, reason: "not a CareLink export: "
                                 + "no 'Index;Date;Time' header in the first \(Self.headerSearchRows) rows")
            }
        }, rows: { mapper?.tally })
        if mapper == nil {
            throw InputError(file: options.path, reason: "not a CareLink export: no 'Index;Date;Time' header")
        }
    }

    /// The separator of the data header (the preamble of a "Data Export File" has none on its first
    /// line), else of the first line that has one.
    static func delimiter(_ lines: [Substring]) -> UInt8 {
        let header = lines.first { line in
            let d = HeaderText.sniffDelimiter(line)
            let cells = line.split(separator: Character(UnicodeScalar(d)), omittingEmptySubsequences: false)
            return CareLinkColumns.opensHeader(HeaderText.normalize(String(cells[0])))
                || CareLinkLayouts.english(for: cells.map { HeaderText.normalize(String($0)) }) != nil
        }
        let line = header ?? lines.first { $0.contains(";") || $0.contains(",") }
        return line.map(HeaderText.sniffDelimiter) ?? UInt8(ascii: ";")
    }
}
