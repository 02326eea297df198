import HealthPipeCLI
import HealthPipeCore
import SQLiteStore

/// Uploads that arrive while the writer is busy are imported together: one `UploadImport` run (one
/// transaction, one derived-data refresh of the days touched) for every v1 upload of a collection
/// waiting at that moment, instead of one run each. A run costs about the same for one reading as
/// for a hundred (the refresh of a day dominates), so under load — many phones, or a backlog after
/// a phone comes back online — the server keeps up; an idle server imports each upload at once.
/// Each request gets back its own documents' outcome: rejected lines are shifted back to the
/// request's own positions. (The quarantine records a document's line within the batch it was
/// imported in — within its import, when a treatment's identity repeats in the batch and the batch
/// is imported in parts so that the last of them wins, `TreatmentReplacing`; its `raw` text is the
/// document's, byte for byte.) Only uploads for the same person go together (a person's token
/// writes into its person, `ServeSettings.subject`).
actor UploadBatches {
    struct Answer: Sendable {
        /// Rejected documents: 1-based position in the request → the quarantine's reason.
        var rejected: [Int: String]
    }

    private struct Waiting {
        var lines: [UInt8]
        var count: Int
        /// Each treatment document's identity (by position), which it replaces (`TreatmentReplacing`).
        var identities: [TreatmentReplacement.Identity?]
        var continuation: CheckedContinuation<Answer, any Error>
    }

    /// Uploads that can share one import: the same collection, for the same person.
    private struct Key: Hashable, Comparable {
        var name: String
        var person: String?
        static func < (a: Key, b: Key) -> Bool { (a.name, a.person ?? "") < (b.name, b.person ?? "") }
    }

    private let settings: ServeSettings
    private var waiting: [Key: [Waiting]] = [:]
    private var draining = false

    init(settings: ServeSettings) { self.settings = settings }

    /// Imports `lines` (`count` documents, one per line) under `name`, with whatever else is waiting.
    func submit(_ lines: [UInt8], count: Int, identities: [TreatmentReplacement.Identity?] = [], name: String) async throws -> Answer {
        let key = Key(name: name, person: CallerPerson.current)
        return try await withCheckedThrowingContinuation { continuation in
            waiting[key, default: []].append(Waiting(lines: lines, count: count, identities: identities, continuation: continuation))
            if !draining {
                draining = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while let key = waiting.keys.sorted().first {
            let batch = waiting.removeValue(forKey: key) ?? []
            await run(batch, key: key)
        }
        draining = false
    }

    private func run(_ batch: [Waiting], key: Key) async {
        let name = key.name
        var lines: [UInt8] = []
        lines.reserveCapacity(batch.reduce(0) { $0 + $1.lines.count })
        var identities: [Int: TreatmentReplacement.Identity] = [:], line = 1
        for w in batch {
            lines += w.lines
            for (i, identity) in w.identities.enumerated() { identities[line + i] = identity }
            line += w.count
        }
        var scoped = self.settings
        if let person = key.person { scoped.subject = person }
        let settings = scoped, all = lines, named = identities
        do {
            let outcome = try await StoreWork.write {
                try TreatmentReplacing.importing(all, name: name, identities: named, settings: settings)
            }
            var first = 1
            for w in batch {
                var rejected: [Int: String] = [:]
                for row in outcome.rejected where row.line >= first && row.line < first + w.count {
                    rejected[Int(row.line) - first + 1] = row.reason
                }
                w.continuation.resume(returning: Answer(rejected: rejected))
                first += w.count
            }
        } catch {
            for w in batch { w.continuation.resume(throwing: error) }
        }
    }
}
