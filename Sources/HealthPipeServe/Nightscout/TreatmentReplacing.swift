import Foundation
import HealthPipeCLI
import SQLiteStore

/// Treatments uploaded again under their identity replace the document it names, as
/// cgm-remote-monitor upserts them on `created_at` and `eventType` (docs/serve.md, "Uploads"): the
/// import of a request's treatments runs between `TreatmentReplacement.mark` and its `sweep`, on
/// the server's one writer, and the days it changed are refreshed. A re-sent bolus (2 U → 5 U) is
/// one 5 U bolus, and the day's total follows.
enum TreatmentReplacing {
    /// A treatment's identity, as its API v3 identifier has it (`NightscoutV3ID`): its time (the
    /// fields the mapping reads, in its order), eventType and which amounts it carries.
    static func identity(_ doc: Any) -> TreatmentReplacement.Identity? {
        guard let doc = doc as? [String: Any], let type = doc["eventType"] as? String, !type.isEmpty,
              let start = NightscoutUpload.seconds(doc, NightscoutUpload.treatmentTimeKeys) else { return nil }
        return TreatmentReplacement.Identity(start: start, eventType: type, insulin: NightscoutV3ID.carries(doc, "insulin"),
                                             carbs: NightscoutV3ID.carries(doc, "carbs"))
    }

    /// Runs `importing` (blocking, on the writer) so that the document on each line of `identities`
    /// (1-based, as the import numbers its lines) replaces what its identity stored before.
    static func run(database: String, subject: String?, timezone: String?, identities: [Int: TreatmentReplacement.Identity],
                    _ importing: () throws -> UploadImport.Outcome) throws -> UploadImport.Outcome {
        guard !identities.isEmpty, FileManager.default.fileExists(atPath: database) else { return try importing() }
        let who = try UploadImport.subject(subject, database: database)
        let all = Array(Set(identities.values))
        try TreatmentReplacement.mark(path: database, subject: who, all)
        let outcome: UploadImport.Outcome
        do { outcome = try importing() } catch {
            try? TreatmentReplacement.unmark(path: database, subject: who, all)
            throw error
        }
        let rejectedLines = Set(outcome.rejected.map { Int($0.line) })
        let accepted = Set(identities.filter { !rejectedLines.contains($0.key) }.values)
        // A rejected document leaves the one it would have replaced as it was.
        try TreatmentReplacement.unmark(path: database, subject: who, Array(Set(all).subtracting(accepted)))
        if try TreatmentReplacement.sweep(path: database, subject: who, Array(accepted)) > 0 {
            try UploadImport.refresh(database: database, subject: subject, timezone: timezone)
        }
        return outcome
    }
}
