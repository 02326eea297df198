import HealthPipeCore

/// A grid row as stored by an earlier run: its key within the series and the columns a fresh
/// insert would write.
struct StoredGridRow {
    var start: Int64, end: Int64, value: Double
    var utcOffset: Int64
    var unit: Symbol
    var flags: Int64
    /// nil for NULL (what a fresh insert stores for the empty band).
    var band: Symbol?
    /// No import id, line, metadata or device, as GridUpsert leaves them.
    var withoutProvenance: Bool

    /// True when inserting `m` afresh would store exactly this row.
    func isWritten(as m: HealthPipeCore.Measurement) -> Bool {
        value.bitPattern == m.value.bitPattern && utcOffset == Int64(m.utcOffset) && unit == m.unit && flags == Int64(m.flags.rawValue)
            && band == (m.band.isEmpty ? nil : m.band) && withoutProvenance
    }
}

/// Reads the stored grid rows (interpolated flag) of one (subject, metric, source) whose start lies
/// in a range, in key order — through the primary key, so a range costs its own rows only.
final class StoredGridRows {
    static let sql = """
        SELECT start, end, value, utc_offset, unit, flags, band, import_id IS NULL AND line IS NULL AND metadata IS NULL AND device_id IS NULL
        FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start BETWEEN ?4 AND ?5
          AND \(DerivedTables.interpolatedMeasurements)
        ORDER BY start, end
        """

    private let statement: Statement
    private let symbols: SymbolBytes
    private var units = ColumnSymbolCache()
    private var bands = ColumnSymbolCache()

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        statement = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
    }

    /// Replaces `rows` with the series' grid rows with `from <= start <= through`.
    func read(_ series: GridSeries, from: Int64, through: Int64, into rows: inout [StoredGridRow]) throws {
        rows.removeAll(keepingCapacity: true)
        let s = statement
        defer { s.reset() }
        try symbols.bind(series.subject, to: s, at: 1)
        try symbols.bind(series.metric, to: s, at: 2)
        try symbols.bind(series.source, to: s, at: 3)
        try s.bindInt(4, from)
        try s.bindInt(5, through)
        while try s.step() {
            rows.append(StoredGridRow(start: s.int(0), end: s.int(1), value: s.double(2),
                                      utcOffset: s.int(3), unit: units.symbol(s, 4), flags: s.int(5),
                                      band: s.isNull(6) ? nil : bands.symbol(s, 6), withoutProvenance: s.int(7) != 0))
        }
    }
}
