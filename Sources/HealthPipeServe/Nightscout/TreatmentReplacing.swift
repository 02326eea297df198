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
/// identity wins, as if each had been sent after the one before: the n-th document of an identity
/// is imported in the n-th round, each round its own mark, import and sweep. A batch without a
/// repeated identity is one round; a rejected document leaves the one before it standing.
enum TreatmentReplacing {
    /// A treatment's identity, as its API v3 identifier has it (`NightscoutV3ID`): its time (the
    /// fields the mapping reads, in its order), eventType and which amounts it carries.
    static func identity(_ doc: Any) -> TreatmentReplacement.Identity? {
        guard let doc = doc as? [String: Any], let type = doc["eventType"] as? String, !type.isEmpty,
              let start = NightscoutTime.seconds(of: doc, NightscoutTime.treatmentKeys) else { return nil }
        return TreatmentReplacement.Identity(start: start, eventType: type, insulin: NightscoutV3ID.carries(doc, "insulin"),
                                             carbs: NightscoutV3ID.carries(doc, "carbs"))
    }

    /// Imports `lines` (one Nightscout document a line) under `name` (blocking: call it on the
    /// writer) so that the document on each line of `identities` (1-based, as the import numbers its
    /// lines) replaces what its identity stored before. Rejected lines are answered at their line
    /// in `lines`.
    static func importing(_ lines: [UInt8], name: String, identities: [Int: TreatmentReplacement.Identity],
                          settings: ServeSettings) throws -> UploadImport.Outcome {
        func importRound(_ bytes: [UInt8]) throws -> UploadImport.Outcome {
            try UploadImport.run(bytes, name: name, format: "nightscout", database: settings.database,
                                 subject: settings.subject, timezone: settings.timezone)
        }
        guard !identities.isEmpty else { return try importRound(lines) }
        let who = try UploadImport.subject(settings.subject, database: settings.database)
        // Opened once for the batch; not before the first import has made a new database.
        var opened: TreatmentReplacement?
        func store() throws -> TreatmentReplacement? {
            if opened == nil, FileManager.default.fileExists(atPath: settings.database) {
                opened = try TreatmentReplacement(path: settings.database, subject: who)
            }
            return opened
        }
        let rounds = Self.rounds(identities)
        var swept = 0
        guard rounds.count > 1 else {
            let outcome = try round(try store(), identities, swept: &swept) { try importRound(lines) }
            if swept > 0 { try UploadImport.refresh(database: settings.database, subject: who, timezone: settings.timezone) }
            return outcome
        }
        // Rare: an identity repeats. Each round imports its own lines, numbered back on the way out.
        let documents = Array(lines.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast())
        var outcome: UploadImport.Outcome?
        for (r, members) in rounds.enumerated() {
            let picked = (1...documents.count).filter { identities[$0] == nil ? r == 0 : members.contains($0) }
            var bytes: [UInt8] = [], own: [Int: TreatmentReplacement.Identity] = [:]
            for (i, line) in picked.enumerated() {
                bytes += documents[line - 1]
                bytes.append(0x0A)
                own[i + 1] = identities[line]
            }
            var part = try round(try store(), own, swept: &swept) { try importRound(bytes) }
            for i in part.rejected.indices where picked.indices.contains(Int(part.rejected[i].line) - 1) {
                part.rejected[i].line = Int64(picked[Int(part.rejected[i].line) - 1])
            }
            guard var sum = outcome else { outcome = part; continue }
            sum.measurements += part.measurements
            sum.events += part.events
            sum.rejected += part.rejected
            sum.warnings += part.warnings
            outcome = sum
        }
        if swept > 0 { try UploadImport.refresh(database: settings.database, subject: who, timezone: settings.timezone) }
        guard let outcome else { return try importRound(lines) }
        return outcome
    }

    /// The lines of each round, in order: round n holds the n-th line of each identity (round 0
    /// also every line without one, left to the caller, which knows the line count).
    static func rounds(_ identities: [Int: TreatmentReplacement.Identity]) -> [Set<Int>] {
        var seen: [TreatmentReplacement.Identity: Int] = [:], rounds: [Set<Int>] = []
        for line in identities.keys.sorted() {
            let n = seen[identities[line]!, default: 0]
            seen[identities[line]!] = n + 1
            if n == rounds.count { rounds.append([]) }
            rounds[n].insert(line)
        }
        return rounds
    }

    /// One mark, import and sweep: the documents of `identities` replace what their identities held
    /// (nothing to replace without a database yet).
    private static func round(_ store: TreatmentReplacement?, _ identities: [Int: TreatmentReplacement.Identity], swept: inout Int,
                              _ importing: () throws -> UploadImport.Outcome) throws -> UploadImport.Outcome {
        guard let store else { return try importing() }
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
