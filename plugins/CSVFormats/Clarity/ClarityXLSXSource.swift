import HealthPipeCore
import ZipReading

/// Dexcom Clarity's Excel export (`.xlsx`, the default in many countries): every worksheet whose
/// first row is Clarity's header is read row by row through the same `ClarityRowMapper` as the CSV,
/// so a workbook and its CSV give the same records (line numbers are the sheet's row numbers). A CSV
/// re-saved by Apple Numbers has a title row (the table's name) above the header; it is skipped.
/// Sheets that are not Clarity tables are skipped with a warning.
final class ClarityXLSXSource: Source, InputDescribing {
    static let format = "dexcom-clarity-xlsx"

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    /// Title rows a spreadsheet app may put above the header (Numbers: one, the table's name).
    static let maxTitleRows = 2

    /// A row with exactly one non-empty cell, in its first column: a table title, never a Clarity header or row.
    static func isTitleRow(_ row: XLSXRow) -> Bool {
        guard row.count > 0, !row.isEmpty(0) else { return false }
        return (1..<row.count).allSatisfy { row.isEmpty($0) }
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let package = try XLSXPackage(path: options.path)
        let index = context.registerInput(InputFileInfo(path: options.path, format: Self.format, size: package.size))
        context.progress.addExpected(package.sheets.reduce(0) { $0 + package.uncompressedSize($1.part) })
        var hasher = ContentHasher()
        var rows: Int64 = 0, rejected: Int64 = 0, measurements: Int64 = 0, events: Int64 = 0
        var skipped: [String] = [], read = 0
        var tally = RowTally(knownTypes: ClarityRowMapper.kindSlots)
        defer {
            context.finishInput(index, rows: rows, measurements: measurements, events: events,
                                rejected: rejected, hash: hasher.finalize())
            context.finishRows(index, tally)
        }
        try withoutActuallyEscaping(emit) { emit in
            for sheet in package.sheets {
                var mapper = ClarityRowMapper(options: options)
                defer { tally.add(mapper.tally) }
                var out = BatchBuilder()
                var notClarity = false
                var titles = 0
                let reader = SheetReader(package: package) { row in
                    if notClarity { return }
                    if !mapper.sawHeader, !row.isBlank, ClarityColumns(header: row.strings()) == nil {
                        // Apple Numbers writes the table's name (the CSV's file name) in a row of its own above
                        // the header; a couple of such one-cell title rows are not data.
                        if titles < Self.maxTitleRows, Self.isTitleRow(row) {
                            titles += 1
                            return
                        }
                        notClarity = true
                        return
                    }
                    rows += 1
                    do {
                        try row.refuseIfDamaged()
                        try mapper.map(&row, &out, emit)
                    } catch let r as CSVFileRun.Reject {
                        rejected += 1
                        try context.reject(RowError(file: self.options.path, line: row.line, reason: "sheet '\(sheet.name)': \(r.reason)",
                                                    raw: row.rawText))
                    } catch let z as ZoneResolutionError {
                        rejected += 1
                        try context.reject(RowError(file: self.options.path, line: row.line,
                                                    reason: "sheet '\(sheet.name)': \(z.description)", raw: row.rawText))
                    }
                }
                var stopped = false
                try package.stream(sheet.part, reader) { bytes in
                    hasher.update(bytes)
                    context.progress.advance(Int64(bytes.count))
                    if context.shouldStop { stopped = true }
                    return reader.failure == nil && !notClarity && !stopped
                }
                if let failure = reader.failure { throw failure }
                try out.flush(emit)
                measurements += out.measurements
                events += out.events
                if notClarity || !mapper.sawHeader { skipped.append(sheet.name) } else { read += 1 }
                if stopped { return }
            }
        }
        guard read > 0 else {
            throw InputError(file: options.path, reason: "no worksheet of the workbook is a Dexcom Clarity export "
                             + "(sheets: \(package.sheets.map(\.name).joined(separator: ", ")))")
        }
        if !skipped.isEmpty {
            context.warn("\(options.path): sheets without Clarity's header were not read: \(skipped.joined(separator: ", "))")
        }
    }
}

/// Registry entry for the Clarity XLSX source.
public let dexcomClarityXLSXComponent = ComponentDescriptor(
    name: ClarityXLSXSource.format, role: .source, family: "CSVFormats",
    summary: """
        Dexcom Clarity Excel export (.xlsx; EU exports in mmol/L): every worksheet with Clarity's header is read \
        like the CSV export (same columns, metadata rows, Low/High, events), shared and inline strings, Excel date \
        serials (1900 or 1904 system) or text timestamps. Timestamps are local time: a zone is required.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events],
    detect: { ClarityXLSXDetection.score($0) },
    build: { b in
        ClarityXLSXSource(options: try CSVCommonOptions.read(b))
    })

/// Content detection: a zip holding an Excel workbook whose strings name Clarity's columns.
enum ClarityXLSXDetection {
    static func score(_ sniff: FileSniff) -> Int {
        guard ZipArchive.hasMagic(sniff.prefix),
              let package = try? XLSXPackage(path: sniff.path, contents: false) else { return 0 }
        var parts = ["xl/sharedStrings.xml"]
        if let first = package.sheets.first { parts.append(first.part) }
        for part in parts {
            let text = String(decoding: package.peek(part), as: UTF8.self)
            if ClarityXLSXDetection.namesClarityColumns(text) { return 90 }
        }
        return 0
    }

    /// The workbook's strings hold a Clarity timestamp header and a glucose header, in any language of
    /// `ClarityVocabulary` or by structure (`…Thh:mm:ss`, `(mg/dL)`/`(mmol/L)`), plus an event-type word
    /// or Clarity's EGV code.
    static func namesClarityColumns(_ xml: String) -> Bool {
        let text = xml.lowercased()
        let words = ClarityVocabulary.headerWords
        func any(_ role: ClarityRole) -> Bool {
            (words[role] ?? []).contains { text.contains($0) || text.contains($0.replacingOccurrences(of: "'", with: "&apos;")) }
        }
        let timestamp = text.contains("thh:mm:ss") || any(.timestamp)
        let glucose = any(.glucose) || text.contains("(mg/dl)") || text.contains("(mmol/l)")
        let type = any(.eventType) || text.contains(">egv<")
        return timestamp && glucose && type
    }
}

