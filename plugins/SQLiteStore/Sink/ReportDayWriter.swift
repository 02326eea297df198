import HealthPipeCore

/// Upserts the daily summary reports (`report_days`, one row per subject, local day and value).
final class ReportDayWriter {
    static let sql = UpsertSQL.make(StoreTables.reportDays)
    private let statement: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        statement = try db.prepare(Self.sql, persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<ReportDay>) throws {
        let s = statement
        for d in rows {
            try symbols.bind(d.subject, to: s, at: 1)
            try s.bindText(2, CivilDate.isoDate(fromDays: d.day))
            try symbols.bind(d.metric, to: s, at: 3)
            try symbols.bind(d.unit, to: s, at: 4)
            try s.bindInt(5, Int64(d.reports))
            try s.bindInt(6, Int64(d.count))
            try s.bindDouble(7, d.mean)
            try s.bindDouble(8, d.min)
            try s.bindDouble(9, d.max)
            try s.bindInt(10, Int64(d.maxImportance))
            try s.run()
        }
    }
}
