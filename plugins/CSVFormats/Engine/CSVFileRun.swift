import HealthPipeCore

/// The bookkeeping every CSV source shares: register the file for the run report and imports log,
/// feed progress, turn a row's thrown reason into the stage's error policy, batch the records, and
/// record the file's counts and content hash at the end. A stop request ends the run cleanly.
public struct CSVFileRun {
    let input: CSVInput
    let format: String
    let context: StageContext

    public init(input: CSVInput, format: String, context: StageContext) {
        self.input = input
        self.format = format
        self.context = context
    }
    var path: String { input.input.path }

    /// Reason a row is rejected; thrown by row handlers.
    public struct Reject: RowRejection {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }

        /// A row with more cells than its header: a value holding the separator (a decimal comma in a
        /// comma-separated file) would shift every later column, so the row is refused, not guessed at.
        public static func wider(_ count: Int, than header: Int) -> Reject {
            Reject("row has \(count) fields but the header has \(header) (a decimal comma or a separator inside an unquoted cell?)")
        }
    }

    /// `finish` adds what a source held back until the file's end (also after a stop: what was read lands);
    /// `tally` gives the per-type row counts of a source that keeps them (`RowTally`). `raggedRows`: rows
    /// of the format differ in width by type (a Diaguard backup), so a short last row is not taken for a
    /// cut-off one here; the source checks each type's width itself.
    func run(delimiter: UInt8, raggedRows: Bool = false, emit: (RecordBatch) throws -> Void,
             handle: (inout CSVRow, inout BatchBuilder) throws -> Void,
             finish: (inout BatchBuilder) throws -> Void = { _ in },
             rows tally: () -> RowTally? = { nil }) throws {
        let reader = CSVRowReader(input: input.input, options: .init(delimiter: delimiter))
        let index = context.registerInput(InputFileInfo(path: path, format: format, size: reader.size))
        context.progress.addExpected(reader.size)
        var builder = BatchBuilder()
        var rows: Int64 = 0, rejected: Int64 = 0, widest = 0
        defer {
            context.finishInput(index, rows: rows, measurements: builder.measurements, events: builder.events,
                                rejected: rejected, hash: reader.contentHash)
            // A source that accounts for every data row (the YAML adapters) says what became of each.
            if let t = tally() { context.finishRows(index, t) }
        }
        func reject(_ row: CSVRow, _ reason: String) throws {
            rejected += 1
            try context.reject(RowError(file: path, line: row.line, reason: reason, raw: row.rawText))
        }
        do {
            try reader.forEachRow(progress: { context.progress.advance(Int64($0)) }) { row in
                rows += 1
                if let problem = row.problem {
                    try reject(row, Self.explain(problem, row: row, options: reader.options))
                    return
                }
                // A last line without a line break that is shorter than the file's rows was cut off:
                // its final cell may be a truncated number, so it must not be stored as if whole.
                if !raggedRows, row.unterminated, row.count < widest - 1 {
                    try reject(row, "the file ends mid-row (truncated?): \(row.count) of \(widest) fields")
                    return
                }
                widest = max(widest, row.count)
                builder.beginRow()
                do {
                    try handle(&row, &builder)
                    try builder.endRow(emit)
                } catch let r as Reject {
                    builder.rollbackRow()
                    try reject(row, r.reason)
                } catch let z as ZoneResolutionError {
                    builder.rollbackRow()
                    try reject(row, z.description)
                }
                if builder.isEmpty, context.shouldStop { throw StopReading() }
            }
        } catch is StopReading {
        } catch is ReadInterrupted {}
        try finish(&builder)
        try builder.flush(emit)
    }

    /// `run` for a source outside this module (a wearable's CSV), which keeps no per-type row tally.
    public func forEachRow(delimiter: UInt8, emit: (RecordBatch) throws -> Void,
                           handle: (inout CSVRow, inout BatchBuilder) throws -> Void) throws {
        try run(delimiter: delimiter, emit: emit, handle: handle, finish: { _ in }, rows: { nil })
    }

    static func explain(_ problem: RowProblem, row: CSVRow, options: CSVRowReader.Options) -> String {
        switch problem {
        case .overlong:
            return "line longer than \(options.maxLineBytes >> 10) KiB (not a row of this format; a missing line break?)"
        case .unbalancedQuote(let last):
            return "unbalanced quote: a quoted field opened on line \(row.line) never closes; lines \(row.line)–\(last) are "
                + "quarantined and reading resumes at line \(last + 1)"
        case .rowTooLarge(let last):
            return "a quoted field opened on line \(row.line) runs past \(options.maxRowBytes >> 10) KiB (lines \(row.line)–\(last)); "
                + "reading resumes at line \(last + 1)"
        }
    }
}

/// Thrown inside the row loop when the user asked to stop; the source returns normally.
struct StopReading: Error {}

extension UnsafeRawBufferPointer {
    /// The bytes as text.
    var text: String { String(decoding: self, as: UTF8.self) }
    /// The bytes as text for an error message: capped (a cell can be megabytes), control bytes shown.
    var echo: String { EchoText.quote(self) }
}
