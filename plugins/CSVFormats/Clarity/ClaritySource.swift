import HealthPipeCore

/// Dexcom Clarity CSV export: 12- or 14-column layouts, mg/dL or mmol/L, BOM and double-encoded
/// BOM, any number of metadata rows (data rows are the ones with a timestamp), `T` or space
/// timestamps with one- or two-digit hours, literal `Low`/`High` readings, and the event rows
/// (mapped by `ClarityRowMapper`, which the XLSX source shares).
final class ClaritySource: Source, InputDescribing {
    static let format = "dexcom-clarity"
    /// Dexcom G6/G7 report "Low" below 40 mg/dL and "High" above 400 mg/dL: such readings are
    /// kept at the limit with a flag, never dropped and never mistaken for a real 40 or 400.
    static let sensorLow = 40.0, sensorHigh = 400.0

    /// A Dexcom sensor's `Low`/`High` text (in any language of `ClarityVocabulary`) as its limit
    /// with the range flag; nil for any other cell.
    static func outOfRange(_ cell: UnsafeRawBufferPointer) -> (value: Double, flag: RecordFlags)? {
        for w in ClarityVocabulary.lowWords where equalsFolded(cell, w) { return (sensorLow, .belowSensorRange) }
        for w in ClarityVocabulary.highWords where equalsFolded(cell, w) { return (sensorHigh, .aboveSensorRange) }
        return nil
    }

    /// ASCII case-insensitive byte comparison (multi-byte letters compare exactly).
    private static func equalsFolded(_ b: UnsafeRawBufferPointer, _ w: [UInt8]) -> Bool {
        guard b.count == w.count else { return false }
        for i in 0..<w.count {
            let x = b[i], y = w[i]
            if x == y { continue }
            guard x < 0x80, y < 0x80, x | 0x20 == y | 0x20, (x | 0x20) >= 0x61, (x | 0x20) <= 0x7A else { return false }
        }
        return true
    }

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let input = try CSVInput(path: options.path)
        let delimiter = input.head.lines(1).first.map(HeaderText.sniffDelimiter) ?? UInt8(ascii: ",")
        var mapper = ClarityRowMapper(options: options)
        try CSVFileRun(input: input, format: Self.format, context: context).run(delimiter: delimiter, emit: emit, handle: { row, out in
            // A separator inside an unquoted value shifts every later cell: refuse the row, not misread it.
            if let width = mapper.headerWidth, row.count > width {
                mapper.refused(row)
                throw CSVFileRun.Reject.wider(row.count, than: width)
            }
            try mapper.map(&row, &out, emit)
        }, rows: { mapper.tally })
    }
}
