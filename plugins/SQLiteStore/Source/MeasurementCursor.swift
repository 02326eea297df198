import HealthPipeCore

/// The readings of one (subject, metric, source), in time order, read through the primary key
/// (no sort, no extra index).
final class MeasurementCursor {
    private let statement: Statement
    private(set) var current: Measurement?
    private let subject: Symbol, metric: Symbol, source: Symbol
    private var units = ColumnSymbolCache()
    private var bands = ColumnSymbolCache()

    /// Stored readings only: grid values written by `resample` (flag 128, interpolated) are derived
    /// data, recomputed rather than read back.
    init(db: SQLiteConnection, subject: String, metric: String, source: String) throws {
        statement = try db.prepare("""
            SELECT start, end, utc_offset, value, unit, flags, band FROM measurements
            WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND flags & 128 = 0 ORDER BY start, end, value
            """)
        try statement.bindText(1, subject)
        try statement.bindText(2, metric)
        try statement.bindText(3, source)
        self.subject = Symbol(subject)
        self.metric = Symbol(metric)
        self.source = Symbol(source)
        try advance()
    }

    func advance() throws {
        guard try statement.step() else { current = nil; return }
        let s = statement
        let unit = units.symbol(s, 4)
        let band = bands.symbol(s, 6)
        current = Measurement(subject: subject, metric: metric, source: source, start: s.int(0), end: s.int(1),
                              utcOffset: Int32(truncatingIfNeeded: s.int(2)), value: s.double(3), unit: unit,
                              flags: RecordFlags(rawValue: UInt32(truncatingIfNeeded: s.int(5))), band: band)
    }
}
