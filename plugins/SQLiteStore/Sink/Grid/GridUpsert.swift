import HealthPipeCore

/// Writes grid values as derived rows of `measurements` (interpolated flag, no provenance) on the
/// natural key (subject, metric, source, start, end): of two grid values with one key the later
/// one stays, as for readings. A grid is large (one row per 5 minutes), so rows go 64 to a step.
final class GridUpsert {
    /// The reading's own columns (no provenance), in table order.
    static let columns = StoreTables.measurements.writtenColumns.filter { !StoreTables.measurements.notCompared.contains($0) }
    static let groupSize = 64

    static func sql(rows: Int) -> String {
        UpsertSQL.make(table: "measurements", columns: columns, key: StoreTables.measurements.naturalKey,
                       update: StoreTables.measurements.comparedColumns, changedWhen: StoreTables.measurements.comparedColumns, rows: rows)
    }

    private let single: Statement
    private let group: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        single = try db.prepare(Self.sql(rows: 1), persistent: true)
        group = try db.prepare(Self.sql(rows: Self.groupSize), persistent: true)
        self.symbols = symbols
    }

    /// Writes `rows` in order.
    func write<C: RandomAccessCollection>(_ rows: C) throws where C.Element == HealthPipeCore.Measurement, C.Index == Int {
        var i = rows.startIndex
        while rows.endIndex - i >= Self.groupSize {
            for r in 0..<Self.groupSize { try bind(rows[i + r], to: group, base: r * Self.columns.count) }
            try group.run()
            i += Self.groupSize
        }
        while i < rows.endIndex {
            try bind(rows[i], to: single, base: 0)
            try single.run()
            i += 1
        }
    }

    private func bind(_ m: HealthPipeCore.Measurement, to s: Statement, base: Int) throws {
        try symbols.bind(m.subject, to: s, at: Int32(base + 1))
        try symbols.bind(m.metric, to: s, at: Int32(base + 2))
        try symbols.bind(m.source, to: s, at: Int32(base + 3))
        try s.bindInt(Int32(base + 4), m.start)
        try s.bindInt(Int32(base + 5), m.end)
        try s.bindDouble(Int32(base + 6), m.value)
        try s.bindInt(Int32(base + 7), Int64(m.utcOffset))
        try symbols.bind(m.unit, to: s, at: Int32(base + 8))
        try s.bindInt(Int32(base + 9), Int64(m.flags.rawValue))
        try symbols.bindOrNull(m.band, to: s, at: Int32(base + 10))
    }
}
