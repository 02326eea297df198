import Foundation
import HealthPipeCore

/// One transaction's rows, moved on a writer thread of its own while the sink encodes the next
/// transaction's rows (and, through the queues, the source parses on): PostgreSQL's work — most of
/// an import's time — overlaps HealthPipe's instead of following it. One job at a time, in order, on
/// the sink's main connection; what the job learns (subjects whose rows were not all new, a direct
/// copy that met a stored key) is read back by the sink after it finishes.
final class PGBatchJob: @unchecked Sendable {
    var measurements: StagedReadings
    var events: StagedReadings
    var profiles: StagedTable
    var derived: DerivedStages
    var recordings: RecordingStages
    /// Subjects the store had nothing of before this run, and whether direct copies are still allowed.
    let fresh: Set<Symbol>
    let directCopies: Bool

    /// Subjects with a row that was not inserted new (stored already, a key twice).
    private(set) var unclean: Set<Symbol> = []
    /// Whether most staged measurements and events were stored already unchanged (nil: none staged).
    private(set) var mostlyStored: (measurements: Bool?, events: Bool?) = (nil, nil)
    private(set) var error: Error?
    private let done = DispatchSemaphore(value: 0)

    init(measurements: StagedReadings, events: StagedReadings, profiles: StagedTable, derived: DerivedStages,
         recordings: RecordingStages, fresh: Set<Symbol>, directCopies: Bool) {
        self.measurements = measurements
        self.events = events
        self.profiles = profiles
        self.derived = derived
        self.recordings = recordings
        self.fresh = fresh
        self.directCopies = directCopies
    }

    func start(on db: PGConnection) {
        let thread = Thread { [self] in
            do { try self.run(db) } catch { self.error = error }
            self.done.signal()
        }
        thread.name = "postgres transaction"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Waits for the job; rethrows its failure.
    func wait() throws {
        done.wait()
        if let error { throw error }
    }

    /// The transaction: readings and events moved (straight in, or staged and upserted), the days
    /// whose rows changed listed as pending with them (a killed run leaves them listed), profiles,
    /// derived rows, routes, ECGs and motion sessions moved, the imports log's new rows counted.
    private func run(_ db: PGConnection) throws {
        try db.transaction {
            var changed = Set<StagedReadings.PendingDay>()
            var newRows: [Int64: Int64] = [:]
            for (i, staged) in [measurements, events].enumerated() {
                if staged.lastGeneration > 0 { unclean.formUnion(staged.subjects) }
                var inserted: [String: Int64] = [:]
                let (moved, changedDays) = try staged.flush(db, direct: directCopies && staged.subjects.isSubset(of: fresh))
                changed.formUnion(changedDays)
                if i == 0 { mostlyStored.measurements = staged.mostlyStored(moved) } else { mostlyStored.events = staged.mostlyStored(moved) }
                for m in moved {
                    inserted[m.subject, default: 0] += m.fresh
                    if let id = m.importID, m.changed > 0 { newRows[id, default: 0] += m.changed }
                }
                var perSubject: [Symbol: Int64] = [:]
                for (g, n) in staged.groups { perSubject[g.subject, default: 0] += n }
                for (s, n) in perSubject where inserted[s.text, default: 0] != n { unclean.insert(s) }
            }
            if !changed.isEmpty {
                let rows = changed.map { ($0.subject, $0.day.map(CivilDate.isoDate(fromDays:)) ?? PostgresPendingDays.wholeMark) }.sorted { $0 < $1 }
                try db.query("INSERT INTO derived_pending (subject, day) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING",
                             [PGArray.text(rows.map(\.0)), PGArray.text(rows.map(\.1))])
            }
            try profiles.flush(db)
            try derived.flush(db)
            for (id, n) in try recordings.flush(db) {
                if let id, n > 0 { newRows[id, default: 0] += n }
            }
            for (id, n) in newRows.sorted(by: { $0.key < $1.key }) {
                try db.query("UPDATE imports SET new_rows = new_rows + $2 WHERE id = $1", [String(id), String(n)])
            }
        }
    }
}
