/// A file a source read: recorded in the run report and the SQLite imports table.
public struct InputFileInfo: Sendable, Hashable {
    public var path: String
    public var format: String
    public var size: Int64
    /// 64-bit content hash (hex) computed while streaming; identifies re-imports of the same bytes.
    public var hash: String
    public var rowsRead: Int64
    public var measurements: Int64
    public var events: Int64
    public var rejected: Int64
    /// Data rows that became records, and data rows skipped (a known non-data type, no value); with
    /// `rejected` they add up to the file's data rows. Set by sources that account for every row.
    public var stored: Int64 = 0
    public var skipped: Int64 = 0
    /// The rows per type (sources whose rows are typed, e.g. YAML adapters with `row_type_column`).
    public var rowTypes: [RowTypeCount] = []
    /// True once a source accounted for every data row (`stored + rejected + skipped`).
    public var accounted = false

    public init(path: String, format: String, size: Int64, hash: String = "", rowsRead: Int64 = 0,
                measurements: Int64 = 0, events: Int64 = 0, rejected: Int64 = 0) {
        self.path = path
        self.format = format
        self.size = size
        self.hash = hash
        self.rowsRead = rowsRead
        self.measurements = measurements
        self.events = events
        self.rejected = rejected
    }
}
