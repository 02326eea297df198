/// A row of a tabular export, from a CSV file or a spreadsheet sheet: its cells by index as
/// trimmed bytes, and the line (or sheet row) it came from. Row mappers written against it read
/// both, so a workbook and its CSV give the same records.
protocol TableRow {
    var line: Int64 { get }
    var count: Int { get }
    func trimmed(_ i: Int) -> UnsafeRawBufferPointer
    func isEmpty(_ i: Int) -> Bool
    func strings() -> [String]
    var isBlank: Bool { get }
    /// The row as text for error reports (a CSV line as written; a sheet row's cells joined by commas).
    var rawText: String { get }
}

extension CSVRow: TableRow {}
