import HealthPipeCore

/// Upserts forecast points on (subject, metric, model, issued_at, at).
final class ForecastWriter {
    static let sql = UpsertSQL.make(StoreTables.forecasts)
    private let statement: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        statement = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<ForecastPoint>) throws {
        let s = statement
        for f in rows {
            try symbols.bind(f.subject, to: s, at: 1)
            try symbols.bind(f.metric, to: s, at: 2)
            try symbols.bind(f.model, to: s, at: 3)
            try s.bindInt(4, f.issuedAt)
            try s.bindInt(5, f.at)
            try s.bindInt(6, Int64(f.utcOffset))
            try s.bindDouble(7, f.value)
            try s.run()
        }
    }
}

/// Upserts alerts on (subject, metric, kind, start).
final class AlertWriter {
    static let sql = UpsertSQL.make(StoreTables.alerts)
    private let statement: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        statement = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<Alert>) throws {
        let s = statement
        for a in rows {
            try symbols.bind(a.subject, to: s, at: 1)
            try symbols.bind(a.metric, to: s, at: 2)
            try s.bindText(3, a.kind.rawValue)
            try s.bindInt(4, a.start)
            try s.bindInt(5, a.end)
            try s.bindInt(6, Int64(a.utcOffset))
            try s.bindDouble(7, Double(a.durationSeconds) / 60)
            try s.bindDouble(8, a.value)
            try s.bindDouble(9, a.threshold)
            try symbols.bind(a.model, to: s, at: 10)
            try s.run()
        }
    }
}
