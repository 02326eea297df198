import Foundation
import HTTPTypes
import HealthPipeCLI
import HealthPipeCore
import Hummingbird

/// An upload (POST, or PUT as xDrip+ and Loop update treatments): the documents go through the same
/// import as `healthpipe import --format nightscout` (`UploadImport`: the mapping, the upsert on the
/// natural key, the quarantine, the derived-data refresh), on the server's one writer. The answer is
/// Nightscout's: the documents in the order sent, each with its `_id` — Loop pairs ids with what it
/// sent by position. A document the import rejected is answered without `_id` and with `error`
/// (the quarantine's reason); `X-Quarantined` counts them.
struct NightscoutUpload {
    let settings: ServeSettings
    /// `entries`, `treatments`, `devicestatus`, `profile`: names the import (`imports.path`, the quarantine's `file`).
    let collection: String
    /// The server's one queue of v1 uploads (imported together while the writer is busy).
    let batches: UploadBatches

    func handle(_ request: Request, _ context: ServeContext) async throws -> Response {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let body = try NightscoutBody(Array(buffer.readableBytesView), contentType: request.headers[.contentType])
        guard !body.documents.isEmpty else { return JSONBody.response([Any]()) }
        if collection == "entries" { try SGVUnits.refuseUnlabelledMmol(body.documents) }
        let name = "/nightscout-api/v1/" + collection
        let outcome: UploadBatches.Answer
        do {
            let identities = collection == "treatments" ? body.documents.map(TreatmentReplacing.identity) : []
            outcome = try await batches.submit(body.lines, count: body.documents.count, identities: identities, name: name)
        } catch let failure as UploadImport.Failure {
            if case .configuration(let reason) = failure { throw HTTPError(.conflict, message: reason) }
            throw failure
        }
        var reasons: [Int: String] = [:]
        for (line, reason) in outcome.rejected { reasons[line - 1] = reason }
        let answer = body.documents.enumerated().map { i, doc -> Any in
            guard var object = doc as? [String: Any] else { return ["error": reasons[i] ?? "not a JSON object"] }
            if let reason = reasons[i] {
                object["error"] = reason
            } else if let id = id(of: object) {
                object["_id"] = id
            }
            return object
        }
        var response = JSONBody.response(answer)
        if !reasons.isEmpty { response.headers[HTTPField.Name("X-Quarantined")!] = String(reasons.count) }
        return response
    }

    /// The id the document's stored rows are read back with (`NightscoutID`), from the fields the
    /// mapping reads its time from, in its order.
    private func id(of doc: [String: Any]) -> String? {
        func seconds(_ keys: [String]) -> Int64? { NightscoutTime.seconds(of: doc, keys) }
        switch collection {
        case "entries":
            let type = doc["type"] as? String ?? (doc["mbg"] != nil && doc["sgv"] == nil ? "mbg" : "sgv")
            return seconds(NightscoutTime.entryKeys).map { NightscoutID.make("entries", type, seconds: $0) }
        case "treatments":
            return seconds(NightscoutTime.treatmentKeys)
                .map { NightscoutID.make("treatments", doc["eventType"] as? String ?? "", seconds: $0) }
        case "devicestatus":
            return seconds(NightscoutTime.deviceStatusKeys).map { NightscoutID.make("devicestatus", doc["device"] as? String ?? "Nightscout", seconds: $0) }
        default:
            let name = doc["defaultProfile"] as? String ?? "Default"
            return NightscoutID.make("profile", name, seconds: seconds(["startDate", "mills", "created_at"]) ?? 0)
        }
    }
}
