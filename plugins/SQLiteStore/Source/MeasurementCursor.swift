import HealthPipeCore

/// The readings of one (subject, metric, source) whose start lies in a range, in time order, read
/// through the primary key (no sort, no extra index).
final class MeasurementCursor {
    private let statement: Statement
    private let nextStart: Statement
    private(set) var current: Measurement?
    private let subject: Symbol, metric: Symbol, source: Symbol
    private var units = ColumnSymbolCache()
    private var bands = ColumnSymbolCache()

    /// Stored readings only: grid values written by `resample` (flag 128, interpolated) are derived
    /// data, recomputed rather than read back. Call `load` before reading.
    init(db: SQLiteConnection, subject: String, metric: String, source: String) throws {
        statement = try db.prepare("""
            SELECT start, end, utc_offset, value, unit, flags, band FROM measurements
            WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start BETWEEN ?4 AND ?5 AND \(DerivedTables.readingMeasurements)
            ORDER BY start, end
            """)
        nextStart = try db.prepare("""
            SELECT start FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start >= ?4
            ORDER BY start LIMIT 1
            """)
        for s in [statement, nextStart] {
            try s.bindText(1, subject)
            try s.bindText(2, metric)
            try s.bindText(3, source)
        }
        self.subject = Symbol(subject)
        self.metric = Symbol(metric)
        self.source = Symbol(source)
    }

    /// Positions the cursor on the first reading with `from <= start <= through`.
    func load(from: Int64, through: Int64) throws {
        statement.reset()
        try statement.bindInt(4, from)
        try statement.bindInt(5, through)
        try advance()
    }

    /// The earliest start at or after `time` of any row of this (subject, metric, source), grid
    /// rows included: a seek, where finding the next reading may take a scan.
    func firstRowStart(atOrAfter time: Int64) throws -> Int64? {
        nextStart.reset()
        try nextStart.bindInt(4, time)
        return try nextStart.step() ? nextStart.int(0) : nil
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
