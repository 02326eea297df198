import Foundation
import SQLiteStore

/// Stored documents of one API v3 collection in a window of time, in v3's shape: the v1 documents
/// (`NightscoutEntry`, `NightscoutTreatments`, `NightscoutDeviceStatus`, `NightscoutProfileDocument`)
/// with `identifier` (`NightscoutV3ID`), `date` (ms), `srvCreated`, `srvModified` and `isValid`.
///
/// The store keeps no time of writing, so `srvModified` and `srvCreated` are the document's own
/// `date` — what Nightscout itself answers for documents that have none (`fallbackGetDate`). History
/// since T is then the documents dated after T, and the newest `date` is the collection's
/// lastModified: AndroidAPS's sync (history since the ETag it was last given) ends.
enum NightscoutV3Documents {
    static let collections = ["devicestatus", "entries", "food", "profile", "treatments"]

    /// What one read took from the store (each list in reading order, at most `readLimit` rows).
    struct Rows: Sendable {
        var lists: [[NightscoutRows.Row]] = []
        /// Entries: the reading before the oldest read, per metric and source (for `delta`).
        var previous: [String: NightscoutRows.Row] = [:]
        var profile: String?
        /// Entries: the type (`sgv`, `mbg`) of each list.
        var entryTypes: [String] = []
    }

    /// Rows for `collection` with `fromUTC <= start < toUTC`; `entryTypes` limits entries to `sgv`/`mbg`.
    static func rows(_ store: NightscoutRows, subject: String, collection: String, query q: NightscoutV3Query,
                     readLimit: Int, entryTypes: Set<String>? = nil) throws -> Rows {
        var out = Rows()
        switch collection {
        case "entries":
            for (type, metric) in NightscoutEntry.metrics where entryTypes?.contains(type) ?? true {
                let list = try store.readings(subject: subject, metric: metric, fromUTC: q.fromUTC, toUTC: q.toUTC, limit: readLimit,
                                              origin: .notTreatment, oldestFirst: q.oldestFirst)
                for source in Set(list.map(\.source)) {
                    let oldest = list.filter { $0.source == source }.map(\.start).min()!
                    out.previous[metric + "\u{0}" + source] = try store.readings(subject: subject, metric: metric, fromUTC: .min, toUTC: oldest,
                                                                                 limit: 1, origin: .notTreatment, source: source).first
                }
                out.lists.append(list)
                out.entryTypes.append(type)
            }
        case "treatments":
            out.lists.append(try store.events(subject: subject, fromUTC: q.fromUTC, toUTC: q.toUTC, limit: readLimit, oldestFirst: q.oldestFirst))
            for metric in NightscoutTreatments.metrics {
                out.lists.append(try store.readings(subject: subject, metric: metric, fromUTC: q.fromUTC, toUTC: q.toUTC, limit: readLimit,
                                                    origin: .treatment, oldestFirst: q.oldestFirst))
            }
        case "devicestatus":
            for metric in NightscoutDeviceStatus.metrics {
                out.lists.append(try store.readings(subject: subject, metric: metric, fromUTC: q.fromUTC, toUTC: q.toUTC, limit: readLimit,
                                                    origin: .notTreatment, oldestFirst: q.oldestFirst))
            }
        case "profile":
            out.profile = try store.profile(subject: subject)
        default:
            break  // food: the store keeps no food database
        }
        return out
    }

    /// The documents of `rows`, sorted by date as the query asks, whole: when a list was cut at
    /// `readLimit`, documents from its last instant on are left for the next page (a treatment's rows
    /// must not be split), then the query's other filters, `skip` and `limit`.
    static func documents(_ rows: Rows, collection: String, query q: NightscoutV3Query, readLimit: Int) -> [[String: Any]] {
        var docs: [[String: Any]]
        switch collection {
        case "entries": docs = entries(rows)
        case "treatments": docs = NightscoutTreatments.documents(rows.lists.flatMap { $0 })
        case "devicestatus": docs = NightscoutDeviceStatus.documents(rows.lists.flatMap { $0 })
        case "profile": docs = rows.profile.flatMap(NightscoutProfileDocument.document).map { [$0] } ?? []
        default: docs = []
        }
        docs = docs.compactMap { stamp($0, collection: collection) }.filter {
            let s = second($0)
            return s >= q.fromUTC && s < q.toUTC
        }
        let cuts = rows.lists.filter { $0.count >= readLimit }.compactMap { $0.last?.start }
        if let cut = q.oldestFirst ? cuts.min() : cuts.max() {
            docs = docs.filter { q.oldestFirst ? second($0) < cut : second($0) > cut }
        }
        docs.sort { q.oldestFirst ? second($0) < second($1) : second($0) > second($1) }
        return Array(docs.filter(q.matches).dropFirst(q.skip).prefix(q.limit))
    }

    /// The rows to read for `q`: enough that a page of merged, filtered documents fills.
    static func readLimit(_ q: NightscoutV3Query) -> Int {
        q.filters.isEmpty ? (q.limit + q.skip) * 3 + 10 : 20_000
    }

    static func second(_ doc: [String: Any]) -> Int64 { ((doc["date"] as? NSNumber)?.int64Value ?? 0) / 1000 }

    private static func entries(_ rows: Rows) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for (list, type) in zip(rows.lists, rows.entryTypes) {
            let metric = NightscoutEntry.metrics.first { $0.type == type }!.metric
            var previous = rows.previous.filter { $0.key.hasPrefix(metric + "\u{0}") }
            for row in list.sorted(by: { $0.start < $1.start }) {
                let key = metric + "\u{0}" + row.source
                let e = NightscoutEntry(type: type, row: row, previous: previous[key])
                previous[key] = row
                var doc: [String: Any] = ["type": type, type: e.value, "date": row.start * 1000, "dateString": NightscoutTime.iso(row.start),
                                          "sysTime": NightscoutTime.iso(row.start), "utcOffset": Int(row.utcOffset / 60), "delta": e.delta,
                                          "device": e.device, "units": "mg/dl"]
                if let d = e.direction { doc["direction"] = d }
                out.append(doc)
            }
        }
        return out
    }

    /// A v1 document with v3's fields: `date` from its time, `identifier`, the server's fields.
    static func stamp(_ doc: [String: Any], collection: String) -> [String: Any]? {
        var doc = doc
        if doc["date"] == nil || collection != "entries" {
            let text = doc["created_at"] as? String ?? doc["startDate"] as? String
            guard let seconds = text.flatMap(NightscoutInstantText.seconds) ?? (doc["mills"] as? NSNumber).map({ $0.int64Value / 1000 }) else { return nil }
            doc["date"] = seconds * 1000
        }
        doc["_id"] = nil
        guard let id = NightscoutV3ID.of(doc, collection: collection) else { return nil }
        doc["identifier"] = id
        doc["srvModified"] = doc["date"]
        doc["srvCreated"] = doc["date"]
        doc["isValid"] = true
        return doc
    }
}
