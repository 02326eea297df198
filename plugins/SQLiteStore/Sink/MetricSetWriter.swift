import HealthPipeCore

/// Upserts metric sets into glucose_metrics (one row per name) and replaces the period's AGP rows.
/// A handful of sets per day, so the ISO date strings are built per set. A set's values go in one
/// multi-row upsert (SQLite applies its rows in order, as separate statements would): a statement per
/// value spent more on each step's setup than on the row.
final class MetricSetWriter {
    static func sql(rows: Int) -> String { UpsertSQL.make(StoreTables.glucoseMetrics, rows: rows) }
    /// Rows per statement at most (a day's set has about 25 values).
    static let groupLimit = 32

    private let db: SQLiteConnection
    /// Upserts by their number of rows, prepared when first needed.
    private var upserts: [Statement?] = Array(repeating: nil, count: groupLimit + 1)
    private let deleteAGP: Statement
    private let insertAGP: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        self.db = db
        deleteAGP = try db.prepare("DELETE FROM glucose_agp WHERE subject = ?1 AND metric = ?2 AND period_start = ?3 AND period_end = ?4",
                                   persistent: true)
        insertAGP = try db.prepare(UpsertSQL.insert(StoreTables.glucoseAGP), persistent: true)
        self.symbols = symbols
    }

    func write(_ sets: ArraySlice<MetricSet>) throws {
        for m in sets {
            let from = CivilDate.isoDate(fromDays: m.firstDay), to = CivilDate.isoDate(fromDays: m.lastDay)
            let values = m.values.filter { $0.value.isFinite }
            var i = 0
            while i < values.count {
                let n = min(values.count - i, Self.groupLimit)
                let upsert = try upsert(rows: n)
                for (r, v) in values[i..<(i + n)].enumerated() {
                    let base = Int32(r * Self.columns)
                    try symbols.bind(m.subject, to: upsert, at: base + 1)
                    try symbols.bind(m.metric, to: upsert, at: base + 2)
                    try upsert.bindText(base + 3, from)
                    try upsert.bindText(base + 4, to)
                    try upsert.bindText(base + 5, v.name)
                    try upsert.bindDouble(base + 6, v.value)
                    try symbols.bind(m.unit, to: upsert, at: base + 7)
                }
                try upsert.run()
                i += n
            }
            guard !m.agp.isEmpty else { continue }
            try symbols.bind(m.subject, to: deleteAGP, at: 1)
            try symbols.bind(m.metric, to: deleteAGP, at: 2)
            try deleteAGP.bindText(3, from)
            try deleteAGP.bindText(4, to)
            try deleteAGP.run()
            for p in m.agp {
                try symbols.bind(m.subject, to: insertAGP, at: 1)
                try symbols.bind(m.metric, to: insertAGP, at: 2)
                try insertAGP.bindText(3, from)
                try insertAGP.bindText(4, to)
                try insertAGP.bindInt(5, Int64(p.minuteOfDay))
                try insertAGP.bindInt(6, Int64(p.count))
                for (i, v) in [p.p05, p.p25, p.p50, p.p75, p.p95].enumerated() { try insertAGP.bindDouble(Int32(7 + i), v) }
                try insertAGP.run()
            }
        }
    }

    /// Parameters per row, bound in the table's order: subject, metric, period start and end, name, value, unit.
    private static let columns = StoreTables.glucoseMetrics.writtenColumns.count

    private func upsert(rows: Int) throws -> Statement {
        if let s = upserts[rows] { return s }
        let s = try db.prepare(Self.sql(rows: rows), persistent: true)
        upserts[rows] = s
        return s
    }
}
