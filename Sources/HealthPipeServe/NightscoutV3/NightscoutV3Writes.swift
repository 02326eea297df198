import Foundation
import HealthPipeCLI
import Hummingbird

/// API v3's writes of a collection, each document through the import (`UploadImport`: the
/// Nightscout mapping, the upsert on the natural key, the quarantine, the derived refresh) as a v1
/// upload goes:
/// - CREATE `POST /{collection}`: `201 {"identifier","lastModified"}`; a document already stored
///   (the same identifier) is Nightscout's deduplication, `200` with `isDeduplication: true`.
/// - UPDATE `PUT` and PATCH `PATCH /{collection}/{identifier}` (AndroidAPS patches what changed): the
///   stored document with the sent fields over it (PATCH) or the sent document (PUT), imported again.
/// - DELETE `/{collection}/{identifier}`: the document's rows deleted and remembered (`delete`);
///   `404` for an identifier that names nothing.
/// A document the import rejects is a `400` with the quarantine's reason; nothing of it is stored.
struct NightscoutV3Writes {
    let settings: ServeSettings
    let collection: String
    var reads: NightscoutV3Reads { NightscoutV3Reads(settings: settings, collection: collection) }

    /// Fields the server sets; a client's values for them are not imported.
    static let serverFields: Set<String> = ["identifier", "srvModified", "srvCreated", "isValid", "subject", "modifiedBy", "_id"]

    func create(_ request: Request, _ context: ServeContext) async throws -> Response {
        let doc = try await document(request, context)
        guard let id = NightscoutV3ID.of(doc, collection: collection) else { return NightscoutV3Reply.status(.badRequest, "Bad or missing date field") }
        let existed = try await reads.document(id) != nil
        if let reason = try await importDocument(doc.filter { !Self.serverFields.contains($0.key) }) {
            return NightscoutV3Reply.status(.badRequest, reason)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var response = existed
            ? NightscoutV3Reply.status(.ok, fields: ["identifier": id, "isDeduplication": true, "lastModified": now])
            : NightscoutV3Reply.status(.created, fields: ["identifier": id, "lastModified": now])
        response.headers[.location] = "/api/v3/\(collection)/\(id)"
        return response
    }

    func update(_ request: Request, _ context: ServeContext, identifier: String, patch: Bool) async throws -> Response {
        let sent = try await document(request, context)
        guard var doc = try await reads.document(identifier) else { return NightscoutV3Reply.status(.notFound) }
        // PATCH keeps the stored time and offset (AndroidAPS leaves them out); PUT replaces all but them.
        let kept: Set<String> = ["date", "utcOffset"]
        if !patch { doc = doc.filter { kept.contains($0.key) } }
        for (key, value) in sent where !Self.serverFields.contains(key) && !(patch && kept.contains(key)) { doc[key] = value }
        if let reason = try await importDocument(doc.filter { !Self.serverFields.contains($0.key) }) {
            return NightscoutV3Reply.status(.badRequest, reason)
        }
        return NightscoutV3Reply.status(.ok, fields: ["lastModified": Int64(Date().timeIntervalSince1970 * 1000)])
    }

    /// DELETE: the document's rows are deleted and remembered (`NightscoutDeletion`), so it reads as
    /// Nightscout's "marked deleted" document: gone from searches, `410` when read, in the history
    /// with `isValid: false` — and an import of it again leaves it deleted. `permanent=true` is the same.
    func delete(identifier: String) async throws -> Response {
        let deletion = NightscoutDeletion(settings: settings)
        guard let document = try await deletion.document(collection, identifier: identifier) else {
            // Deleting a deleted document marks it again: 200, as Nightscout's updateOne finds it.
            let gone = try await deletion.deletedDocuments(collection, after: .min).contains { $0["identifier"] as? String == identifier }
            return NightscoutV3Reply.status(gone ? .ok : .notFound)
        }
        _ = try await deletion.delete([document])
        return NightscoutV3Reply.status(.ok)
    }

    /// The request's one JSON object (v3 takes one document per request).
    private func document(_ request: Request, _ context: ServeContext) async throws -> [String: Any] {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let body = try NightscoutBody(Array(buffer.readableBytesView), contentType: request.headers[.contentType])
        guard body.documents.count == 1, let doc = body.documents[0] as? [String: Any], !doc.isEmpty else {
            throw HTTPError(.badRequest, message: "Bad or missing request body")
        }
        if collection == "entries" { try SGVUnits.refuseUnlabelledMmol([doc]) }
        return doc
    }

    /// Imports one document; the quarantine's reason when the import rejected it.
    private func importDocument(_ doc: [String: Any]) async throws -> String? {
        let bytes = Array(try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])) + [0x0A]
        let name = "/nightscout-api/v3/" + collection, settings = self.settings
        // A treatment replaces the one of its identity (PATCH then PUT leaves one dose, the last written).
        let identities = collection == "treatments" ? TreatmentReplacing.identity(doc).map { [1: $0] } ?? [:] : [:]
        do {
            let outcome = try await StoreWork.write {
                try TreatmentReplacing.importing(bytes, name: name, identities: identities, settings: settings)
            }
            return outcome.rejected.first.map(\.reason)
        } catch let failure as UploadImport.Failure {
            if case .configuration(let reason) = failure { throw HTTPError(.conflict, message: reason) }
            throw failure
        }
    }
}
