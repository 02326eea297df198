import Foundation
import HealthPipeCLI
import Hummingbird
import SQLiteStore

/// Deleting Nightscout documents (v1 `DELETE /entries/…`, `DELETE /treatments/…`, v3 `DELETE
/// /{collection}/{identifier}`): the stored rows each document was made of are deleted and
/// remembered (`RowDeletion`: an import bringing them again leaves them deleted), the days they
/// counted in are refreshed as after any edit (`UploadImport.refresh`, `EditRefresh`), on the
/// server's one writer. Documents are found as the reads find them, so a DELETE removes exactly
/// what a GET with the same query lists (all of it: MongoDB's `deleteMany` has no `count`).
struct NightscoutDeletion {
    let settings: ServeSettings
    var routes: NightscoutRoutes { NightscoutRoutes(settings: settings) }

    /// The documents of `collection` (`entries`, `treatments`, `devicestatus`) `find` finds, with their rows.
    func documents(_ collection: String, _ find: NightscoutFind, entryType: String? = nil) async throws -> [NightscoutDocumentRows] {
        var find = find
        find.count = NightscoutFind.maxCount
        switch collection {
        case "entries":
            return try await routes.entryDocuments(find, type: entryType).map {
                NightscoutDocumentRows(doc: ["_id": $0.id, "type": $0.type, $0.type: $0.value, "date": $0.row.start * 1000], rows: [$0.row])
            }
        case "treatments": return try await routes.treatmentGroups(find)
        case "devicestatus": return try await routes.deviceStatusGroups(find)
        default: return []
        }
    }

    /// The document an API v3 identifier names, nil when none is stored.
    func document(_ collection: String, identifier: String) async throws -> NightscoutDocumentRows? {
        guard let second = NightscoutV3ID.second(of: identifier) else { return nil }
        return try await documents(collection, NightscoutFind(fromUTC: second, toUTC: second + 1)).first {
            NightscoutV3Documents.stamp($0.doc, collection: collection)?["identifier"] as? String == identifier
        }
    }

    /// Deletes the rows of `documents`; the number of documents deleted.
    func delete(_ documents: [NightscoutDocumentRows]) async throws -> Int {
        let targets = documents.flatMap { $0.rows.map(\.deletionTarget) }
        guard !targets.isEmpty else { return 0 }
        let settings = self.settings, now = Int64(Date().timeIntervalSince1970)
        do {
            let deleted = try await StoreWork.write {
                let who = try UploadImport.subject(settings.subject, database: settings.database)
                let rows = try RowDeletion.delete(path: settings.database, subject: who, targets, now: now)
                if rows > 0 { try UploadImport.refresh(database: settings.database, subject: who, timezone: settings.timezone) }
                return rows
            }
            return deleted > 0 ? documents.count : 0
        } catch let failure as UploadImport.Failure {
            throw HTTPError(.conflict, message: failure.description)
        }
    }

    /// Nightscout v1's answer to a DELETE (MongoDB's `DeleteResult`).
    static func answer(_ deleted: Int) -> Response {
        JSONBody.response(["acknowledged": true, "deletedCount": deleted] as [String: Any])
    }

    /// The documents of `collection` deleted after `since` (UTC seconds), as API v3 reports them:
    /// the document as it was, `isValid: false`, `srvModified` the time of its deletion.
    func deletedDocuments(_ collection: String, after since: Int64) async throws -> [[String: Any]] {
        let deleted = try await routes.read { rows, subject in try rows.deleted(subject: subject, after: since) } ?? []
        var byTime: [Int64: [NightscoutRows.Row]] = [:]
        for (row, at) in deleted where Self.collection(of: row) == collection { byTime[at, default: []].append(row) }
        var out: [[String: Any]] = []
        for (at, rows) in byTime.sorted(by: { $0.key < $1.key }) {
            var lists = NightscoutV3Documents.Rows()
            if collection == "entries" {
                for (type, metric) in NightscoutEntry.metrics {
                    lists.lists.append(rows.filter { $0.kind == metric })
                    lists.entryTypes.append(type)
                }
            } else {
                lists.lists = [rows]
            }
            for var doc in NightscoutV3Documents.documents(lists, collection: collection, query: NightscoutV3Query(), readLimit: .max) {
                doc["isValid"] = false
                doc["srvModified"] = at * 1000
                out.append(doc)
            }
        }
        return out
    }

    /// Which collection a stored row's document is in (as the reads choose them).
    static func collection(of row: NightscoutRows.Row) -> String? {
        if row.isEvent { return "treatments" }
        if NightscoutTreatments.metrics.contains(row.kind), row.metadata?.contains(#""eventType""#) == true { return "treatments" }
        if NightscoutEntry.metrics.contains(where: { $0.metric == row.kind }) { return "entries" }
        if NightscoutDeviceStatus.metrics.contains(row.kind) { return "devicestatus" }
        return nil
    }
}
