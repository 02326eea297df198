import HealthPipeCore

/// Upserts metric sets into glucose_metrics (one row per name) and replaces the period's AGP rows.
/// A handful of sets per day, so the ISO date strings are built per set.
final class MetricSetWriter {
    static let sql = UpsertSQL.make(StoreTables.glucoseMetrics)

    private let upsert: Statement
    private let deleteAGP: Statement
    private let insertAGP: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        upsert = try db.prepare(Self.sql, persistent: true)
        deleteAGP = try db.prepare("DELETE FROM glucose_agp WHERE subject = ?1 AND metric = ?2 AND period_start = ?3 AND period_end = ?4",
                                   persistent: true)
        insertAGP = try db.prepare(UpsertSQL.insert(StoreTables.glucoseAGP), persistent: true)
        self.symbols = symbols
    }

    func write(_ sets: ArraySlice<MetricSet>) throws {
        for m in sets {
            let from = CivilDate.isoDate(fromDays: m.firstDay), to = CivilDate.isoDate(fromDays: m.lastDay)
            for v in m.values where v.value.isFinite {
                try symbols.bind(m.subject, to: upsert, at: 1)
                try symbols.bind(m.metric, to: upsert, at: 2)
                try upsert.bindText(3, from)
                try upsert.bindText(4, to)
                try upsert.bindText(5, v.name)
                try upsert.bindDouble(6, v.value)
                try symbols.bind(m.unit, to: upsert, at: 7)
                try upsert.run()
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
}
