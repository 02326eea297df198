import Foundation
import HealthPipeCLI
import SQLiteStore

/// Treatments uploaded again under their identity replace the document it names, as
/// cgm-remote-monitor upserts them on `created_at` and `eventType` (docs/serve.md, "Uploads"): the
/// import of a batch's treatments runs between `TreatmentReplacement.mark` and its `sweep`, on
/// the server's one writer, and the days it changed are refreshed. A re-sent bolus (2 U → 5 U) is
/// one 5 U bolus, and the day's total follows.
///
/// Within one batch (one array body, or requests merged by `UploadBatches`) the last document of an
/// identity wins, as if each had been sent after the one before (`lastWins`): at most three
/// imports however often an identity repeats. A batch without a repeat is one import.
enum TreatmentReplacing {
    typealias Identity = TreatmentReplacement.Identity

    /// A treatment's identity, as its API v3 identifier has it (`NightscoutV3ID`): its time (the
    /// fields the mapping reads, in its order), eventType and which amounts it carries.
    static func identity(_ doc: Any) -> Identity? {
        guard let doc = doc as? [String: Any], let type = doc["eventType"] as? String, !type.isEmpty,
              let start = NightscoutTime.seconds(of: doc, NightscoutTime.treatmentKeys) else { return nil }
        return Identity(start: start, eventType: type, insulin: NightscoutV3ID.carries(doc, "insulin"), carbs: NightscoutV3ID.carries(doc, "carbs"))
    }

    /// Imports `lines` (one Nightscout document a line) under `name` (blocking: call it on the
    /// writer) so that the document on each line of `identities` (1-based, as the import numbers its
    /// lines) replaces what its identity stored before. Rejected lines are answered at their line
    /// in `lines`.
    static func importing(_ lines: [UInt8], name: String, identities: [Int: Identity], settings: ServeSettings) throws -> UploadImport.Outcome {
        guard !identities.isEmpty else {
            return try UploadImport.run(lines, name: name, format: "nightscout", database: settings.database,
                                        subject: settings.subject, timezone: settings.timezone)
        }
        // The subject resolved once for the batch's imports, marks and refresh.
        let who = try UploadImport.subject(settings.subject, database: settings.database)
        func importBytes(_ bytes: [UInt8]) throws -> UploadImport.Outcome {
            try UploadImport.run(bytes, name: name, format: "nightscout", database: settings.database, subject: who, timezone: settings.timezone)
        }
        // Opened once for the batch; not before an import has made a new database.
        var opened: TreatmentReplacement?
        func store() throws -> TreatmentReplacement? {
            if opened == nil, FileManager.default.fileExists(atPath: settings.database) {
                opened = try TreatmentReplacement(path: settings.database, subject: who)
            }
            return opened
        }
        var linesOf: [Identity: [Int]] = [:]
        for line in identities.keys.sorted() { linesOf[identities[line]!, default: []].append(line) }
        let repeated = linesOf.values.filter { $0.count > 1 }
        var swept = 0
        let outcome = repeated.isEmpty
            ? try replace(try store(), identities, swept: &swept) { try importBytes(lines) }
            : try lastWins(lines, identities, repeated: repeated, store: store, swept: &swept, importBytes)
        if swept > 0 { try UploadImport.refresh(database: settings.database, subject: who, timezone: settings.timezone) }
        return outcome
    }

    /// A batch in which identities repeat (`repeated`: each one's lines, in order), in at most three
    /// imports, to the state of sending its documents one after another:
    /// 1. every document but the repeated identities' last ones (their earlier ones replace nothing yet);
    /// 2. those last ones, each replacing all its identity holds — the earlier ones just stored too;
    /// 3. where a last one was rejected, the latest earlier one the import kept, again, so that it
    ///    alone stands (none kept: what was stored before stays, as a rejected correction leaves it).
    private static func lastWins(_ lines: [UInt8], _ identities: [Int: Identity], repeated: [[Int]],
                                 store: () throws -> TreatmentReplacement?, swept: inout Int,
                                 _ importBytes: ([UInt8]) throws -> UploadImport.Outcome) throws -> UploadImport.Outcome {
        let documents = lines.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        /// Imports the documents on `picked`; those `replacing` says replace their identity's; rejected lines numbered as in `lines`.
        func run(_ picked: [Int], replacing: (Int) -> Bool) throws -> UploadImport.Outcome {
            var bytes: [UInt8] = [], own: [Int: Identity] = [:]
            for (i, line) in picked.enumerated() {
                bytes += documents[documents.startIndex + line - 1]
                bytes.append(0x0A)
                if replacing(line) { own[i + 1] = identities[line] }
            }
            var outcome = try replace(try store(), own, swept: &swept) { try importBytes(bytes) }
            for i in outcome.rejected.indices where picked.indices.contains(Int(outcome.rejected[i].line) - 1) {
                outcome.rejected[i].line = Int64(picked[Int(outcome.rejected[i].line) - 1])
            }
            return outcome
        }
        let lasts = Set(repeated.map { $0[$0.count - 1] }), earlier = Set(repeated.flatMap { $0.dropLast() })
        var outcome = try run((1...documents.count).filter { !lasts.contains($0) }, replacing: { !earlier.contains($0) })
        let second = try run(lasts.sorted(), replacing: { _ in true })
        let refused = Set((outcome.rejected + second.rejected).map { Int($0.line) })
        let standing = repeated.compactMap { lines -> Int? in
            refused.contains(lines[lines.count - 1]) ? lines.dropLast().last { !refused.contains($0) } : nil
        }
        // Already answered by the first import: only what stands changes.
        if !standing.isEmpty { _ = try run(standing.sorted(), replacing: { _ in true }) }
        outcome.measurements += second.measurements
        outcome.events += second.events
        outcome.rejected += second.rejected
        outcome.warnings += second.warnings
        return outcome
    }

    /// One mark, import and sweep: the documents of `identities` replace what their identities held
    /// (nothing to replace without a database yet).
    private static func replace(_ store: TreatmentReplacement?, _ identities: [Int: Identity], swept: inout Int,
                                _ importing: () throws -> UploadImport.Outcome) throws -> UploadImport.Outcome {
        guard let store, !identities.isEmpty else { return try importing() }
        let all = Array(Set(identities.values))
        try store.mark(all)
        let outcome: UploadImport.Outcome
        do { outcome = try importing() } catch {
            try? store.unmark(all)
            throw error
        }
        let rejectedLines = Set(outcome.rejected.map { Int($0.line) })
        let accepted = Set(identities.filter { !rejectedLines.contains($0.key) }.values)
        // A rejected document leaves the one it would have replaced as it was.
        try store.unmark(Array(Set(all).subtracting(accepted)))
        swept += try store.sweep(Array(accepted))
        return outcome
    }
}
