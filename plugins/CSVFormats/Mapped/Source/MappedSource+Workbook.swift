import Foundation
import HealthPipeCore
import ZipReading

/// A YAML adapter's table saved as an Excel workbook (`.xlsx`): some vendors' portals hand out
/// their export as a workbook (Eversense DMS), and people re-save CSV exports in Excel. The first
/// worksheet is read row by row through the same `MappedLayout` and `MappedRowMapper` as the CSV,
/// so a workbook and its CSV give the same records (line numbers are the sheet's row numbers).
extension MappedSource {
    func runWorkbook(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let path = options.path
        let package = try XLSXPackage(path: path)
        guard let sheet = package.sheets.first else {
            throw InputError(file: path, reason: "not a \(adapter.name) workbook: it has no worksheet")
        }
        let index = context.registerInput(InputFileInfo(path: path, format: adapter.name, size: package.size))
        context.progress.addExpected(package.uncompressedSize(sheet.part))
        var hasher = ContentHasher()
        var rows: Int64 = 0, rejected: Int64 = 0
        var layout = MappedLayout(adapter: adapter, path: path)
        var mapper = MappedRowMapper(adapter: adapter, subject: options.subject, file: Symbol(path))
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: path, format: adapter.name)
        var out = BatchBuilder()
        defer {
            context.finishInput(index, rows: rows, measurements: out.measurements, events: out.events,
                                rejected: rejected, hash: hasher.finalize())
            context.finishRows(index, mapper.tally)
        }
        try withoutActuallyEscaping(emit) { emit in
            let reader = SheetReader(package: package) { row in
                guard try layout.isDataRow(row) else { return }
                rows += 1
                do {
                    try row.refuseIfDamaged()
                    if let width = layout.headerWidth, row.count > width, !Self.blankAfter(row, width) {
                        throw CSVFileRun.Reject.wider(row.count, than: width)
                    }
                    if !mapper.hasColumns, let columns = layout.columns { mapper.use(columns) }
                    out.beginRow()
                    do { try mapper.map(row, &placer, &out, emit) } catch { out.rollbackRow(); throw error }
                    try out.endRow(emit)
                } catch let r as CSVFileRun.Reject {
                    rejected += 1
                    try context.reject(RowError(file: path, line: row.line, reason: "sheet '\(sheet.name)': \(r.reason)", raw: row.rawText))
                } catch let z as ZoneResolutionError {
                    rejected += 1
                    try context.reject(RowError(file: path, line: row.line, reason: "sheet '\(sheet.name)': \(z.description)",
                                                raw: row.rawText))
                }
            }
            var stopped = false
            try package.stream(sheet.part, reader) { bytes in
                hasher.update(bytes)
                context.progress.advance(Int64(bytes.count))
                if context.shouldStop { stopped = true }
                return reader.failure == nil && !stopped
            }
            if let failure = reader.failure { throw failure }
            try out.flush(emit)
        }
        try layout.finish()
    }

    /// Spreadsheet apps keep formatted but empty cells right of the table: not extra columns.
    static func blankAfter(_ row: XLSXRow, _ width: Int) -> Bool { (width..<row.count).allSatisfy { row.isEmpty($0) } }
}

/// Content detection of an adapter's table in a workbook: the first rows of the first sheet are
/// written out as delimited text and judged by the adapter's own CSV rule (`MappedDetector`), so
/// the header words and data-row parsing decide as for the CSV. A cheap look at the workbook's
/// strings for the first header cell comes first: most workbooks are ruled out without reading a sheet.
enum MappedXLSXDetection {
    static let sniffRows = 40

    static func score(_ detector: MappedDetector, _ sniff: FileSniff) -> Int {
        guard ZipArchive.hasMagic(sniff.prefix), let first = detector.adapter.headerCells.first,
              let quick = try? XLSXPackage(path: sniff.path, contents: false) else { return 0 }
        let words = ColumnNames.alternatives(first).map { String($0).lowercased() }
        var parts = ["xl/sharedStrings.xml"]
        if let sheet = quick.sheets.first { parts.append(sheet.part) }
        let named = parts.contains { part in
            let text = String(decoding: quick.peek(part), as: UTF8.self).lowercased()
            return words.contains { text.contains($0) }
        }
        guard named, let text = head(sniff.path, separator: detector.adapter.separator ?? UInt8(ascii: ",")) else { return 0 }
        let csv = FileSniff(path: sniff.path, prefix: Array(text.utf8))
        return detector.matches(csv) ? MappedDetector.matchScore : 0
    }

    /// The first `sniffRows` rows of the first sheet as delimited text (cells quoted when needed).
    static func head(_ path: String, separator: UInt8) -> String? {
        guard let package = try? XLSXPackage(path: path), let sheet = package.sheets.first else { return nil }
        var lines: [String] = []
        let reader = SheetReader(package: package) { row in
            guard lines.count < sniffRows else { return }
            lines.append(CSVText.line(row.strings(), separator: separator))
        }
        try? package.stream(sheet.part, reader) { _ in lines.count < sniffRows }
        return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
    }
}
