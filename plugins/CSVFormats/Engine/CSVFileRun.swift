import HealthPipeCore

/// The bookkeeping every CSV source shares: open the file, register it for the run report and
/// imports log, feed progress, turn a row's thrown reason into the stage's error policy, batch
/// the records, and record the file's counts and content hash at the end.
struct CSVFileRun {
    let path: String
    let format: String
    let context: StageContext

    /// Reason a row is rejected; thrown by row handlers.
    struct Reject: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    func run(delimiter: UInt8, emit: (RecordBatch) throws -> Void,
             handle: (inout CSVRow, inout BatchBuilder) throws -> Void) throws {
        let reader = try CSVRowReader(path: path, options: .init(delimiter: delimiter))
        let index = context.registerInput(InputFileInfo(path: path, format: format, size: reader.size))
        context.progress.addExpected(reader.size)
        var builder = BatchBuilder()
        var rows: Int64 = 0, rejected: Int64 = 0, widest = 0
        defer {
            context.updateInput(index) {
                $0.rowsRead = rows
                $0.measurements = builder.measurements
                $0.events = builder.events
                $0.rejected = rejected
                $0.hash = reader.contentHash
            }
        }
        do {
        try reader.forEachRow(progress: { context.progress.advance(Int64($0)) }) { row in
            rows += 1
            if row.overlong {
                rejected += 1
                try context.reject(RowError(file: path, line: row.line, reason: "line longer than \(reader.options.maxLineBytes >> 20) MiB",
                                            raw: row.rawText))
                return
            }
            // A last line without a line break that is shorter than the file's rows was cut off:
            // its final cell may be a truncated number, so it must not be stored as if whole.
            if row.unterminated, row.count < widest - 1 {
                rejected += 1
                try context.reject(RowError(file: path, line: row.line, reason: "the file ends mid-row (truncated?): "
                                            + "\(row.count) of \(widest) fields", raw: row.rawText))
                return
            }
            widest = max(widest, row.count)
            do {
                try handle(&row, &builder)
            } catch let r as Reject {
                rejected += 1
                try context.reject(RowError(file: path, line: row.line, reason: r.reason, raw: row.rawText))
            } catch let z as ZoneResolutionError {
                rejected += 1
                try context.reject(RowError(file: path, line: row.line, reason: z.description, raw: row.rawText))
            }
            if builder.batch.isEmpty, context.shouldStop { throw StopReading() }
        }
        } catch is StopReading {}
        try builder.flush(emit)
    }
}

/// Thrown inside the row loop when the user asked to stop; the source returns normally.
struct StopReading: Error {}

extension UnsafeRawBufferPointer {
    /// The bytes as text, for error messages.
    var text: String { String(decoding: self, as: UTF8.self) }
}
