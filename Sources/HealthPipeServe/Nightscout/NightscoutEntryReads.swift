import HealthPipeCore
import SQLiteStore

/// Stored readings as Nightscout entries, newest first — what `/api/v1/entries` (every format),
/// `/pebble` and `/api/v2/properties` read, each reading with the delta from its source's reading
/// before it.
enum NightscoutEntryReads {
    /// Entries of `type` (`sgv`, `mbg`, or both for nil) with `fromUTC <= start < toUTC`, at most
    /// `limit` of each type.
    static func entries(_ rows: NightscoutRows, subject: String, type wanted: String?, fromUTC: Int64, toUTC: Int64,
                        limit: Int) throws -> [NightscoutEntry] {
        var out: [NightscoutEntry] = []
        for (t, metric) in NightscoutEntry.metrics where wanted == nil || wanted == t {
            let found = try rows.readings(subject: subject, metric: metric, fromUTC: fromUTC, toUTC: toUTC, limit: limit, origin: .notTreatment)
            // Each reading's delta needs the one before it, for the oldest too: one seek back per source.
            var previous: [String: NightscoutRows.Row] = [:]
            for source in Set(found.map(\.source)) {
                let oldest = found.last { $0.source == source }!
                previous[source] = try rows.readings(subject: subject, metric: metric, fromUTC: .min, toUTC: oldest.start, limit: 1,
                                                     origin: .notTreatment, source: source).first
            }
            for row in found.reversed() {
                out.append(NightscoutEntry(type: t, row: row, previous: previous[row.source]))
                previous[row.source] = row
            }
        }
        return out.sorted { $0.row.start > $1.row.start }
    }
}
