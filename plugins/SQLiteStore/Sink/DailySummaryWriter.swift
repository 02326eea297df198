import HealthPipeCore

/// Upserts one daily_summaries row per (subject, day, metric) and replaces that day's band shares.
/// A few rows per day, so the ISO day string is built per row.
final class DailySummaryWriter {
    static let sql = UpsertSQL.make(StoreTables.dailySummaries)

    private let upsert: Statement
    private let deleteBands: Statement
    private let insertBand: Statement
    private let symbols: SymbolBytes

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        upsert = try db.prepare(Self.sql, persistent: true)
        deleteBands = try db.prepare("DELETE FROM daily_bands WHERE subject = ?1 AND day = ?2 AND metric = ?3",
                                     persistent: true)
        insertBand = try db.prepare("INSERT INTO daily_bands (subject, day, metric, band, percent) VALUES (?1, ?2, ?3, ?4, ?5) "
                                    + "ON CONFLICT DO UPDATE SET percent = excluded.percent",
                                    persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<DailySummary>) throws {
        for d in rows {
            let day = CivilDate.isoDate(fromDays: d.day)
            let s = upsert
            try symbols.bind(d.subject, to: s, at: 1)
            try s.bindText(2, day)
            try symbols.bind(d.metric, to: s, at: 3)
            try symbols.bind(d.unit, to: s, at: 4)
            try s.bindInt(5, Int64(d.count))
            try s.bindDouble(6, d.min)
            try s.bindDouble(7, d.max)
            try s.bindDouble(8, d.mean)
            try s.bindDouble(9, d.sd)
            try s.bindInt(10, d.hypo ? 1 : 0)
            try s.bindInt(11, d.hyper ? 1 : 0)
            try s.bindDouble(12, d.carbsGrams)
            try s.bindDouble(13, d.insulinUnits)
            try s.bindDouble(14, d.exerciseMinutes)
            try s.bindInt(15, d.illness ? 1 : 0)
            try s.bindInt(16, d.stress ? 1 : 0)
            try s.bindDouble(17, d.total)
            try s.bindText(18, SourceShare.json(d.totalSources))
            try s.run()

            try symbols.bind(d.subject, to: deleteBands, at: 1)
            try deleteBands.bindText(2, day)
            try symbols.bind(d.metric, to: deleteBands, at: 3)
            try deleteBands.run()
            for share in d.bandPercents {
                try symbols.bind(d.subject, to: insertBand, at: 1)
                try insertBand.bindText(2, day)
                try symbols.bind(d.metric, to: insertBand, at: 3)
                try symbols.bind(share.band, to: insertBand, at: 4)
                try insertBand.bindDouble(5, share.percent)
                try insertBand.run()
            }
        }
    }
}
