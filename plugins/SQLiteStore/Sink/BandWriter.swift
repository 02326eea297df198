import HealthPipeCore

/// Re-aggregation's measurement writer: changes only the `band` of stored readings (rows are
/// addressed by their natural key; provenance, flags and values stay as imported). Rows go 64 per
/// statement step; a row whose band is unchanged is not written.
final class BandWriter {
    static let columns = ["subject", "metric", "source", "start", "end", "value", "utc_offset", "unit", "flags", "band"]
    static let groupSize = 64
    static func sql(rows: Int) -> String {
        UpsertSQL.make(table: "measurements", columns: columns, key: ["subject", "metric", "source", "start", "end", "value"],
                       update: ["band"], changedWhen: ["band"], rows: rows)
    }

    private let single: Statement
    private let group: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        single = try db.prepare(Self.sql(rows: 1), persistent: true)
        group = try db.prepare(Self.sql(rows: Self.groupSize), persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<Measurement>) throws {
        var i = rows.startIndex
        while i < rows.endIndex {
            if rows.endIndex - i >= Self.groupSize {
                for r in 0..<Self.groupSize { try bind(rows[i + r], to: group, base: Int32(r * Self.columns.count)) }
                try group.run()
                i += Self.groupSize
            } else {
                try bind(rows[i], to: single, base: 0)
                try single.run()
                i += 1
            }
        }
    }

    @inline(__always)
    private func bind(_ m: Measurement, to s: Statement, base: Int32) throws {
        try symbols.bind(m.subject, to: s, at: base + 1)
        try symbols.bind(m.metric, to: s, at: base + 2)
        try symbols.bind(m.source, to: s, at: base + 3)
        try s.bindInt(base + 4, m.start)
        try s.bindInt(base + 5, m.end)
        try s.bindDouble(base + 6, m.value)
        try s.bindInt(base + 7, Int64(m.utcOffset))
        try symbols.bind(m.unit, to: s, at: base + 8)
        try s.bindInt(base + 9, Int64(m.flags.rawValue))
        try symbols.bindOrNull(m.band, to: s, at: base + 10)
    }
}
