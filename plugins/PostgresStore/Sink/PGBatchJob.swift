import Foundation
import HealthPipeCore

/// One transaction's rows, moved on a writer thread of its own while the sink encodes the next
/// transaction's rows (and, through the queues, the source parses on): PostgreSQL's work — most of
/// an import's time — overlaps HealthPipe's instead of following it. One job at a time, in order, on
/// the sink's main connection; what the job learns (the days whose rows it changed, the days where a
/// row was not new) is read back by the sink after it finishes.
final class PGBatchJob: @unchecked Sendable {
    typealias PendingDay = StagedReadings.PendingDay

    var measurements: StagedReadings
    var events: StagedReadings
    var profiles: StagedTable
    var derived: DerivedStages
    var recordings: RecordingStages
    /// Whether the measurements and the events may be copied straight in (`StagedReadings`).
    let direct: (measurements: Bool, events: Bool)
    /// In the last transaction of a completed run: the days known fresh before it. Those still fresh
    /// after its own rows are taken off `derived_pending` in it (their derived rows are written).
    let settling: DayFreshness?

    /// Days whose rows this transaction inserted or changed, and days where a row was not new.
    private(set) var changed: Set<PendingDay> = []
    private(set) var contested: Set<PendingDay> = []
    /// Whether most staged measurements and events were stored already unchanged (nil: none staged).
    private(set) var mostlyStored: (measurements: Bool?, events: Bool?) = (nil, nil)
    private(set) var error: Error?
    private let done = DispatchSemaphore(value: 0)

    init(measurements: StagedReadings, events: StagedReadings, profiles: StagedTable, derived: DerivedStages,
         recordings: RecordingStages, direct: (measurements: Bool, events: Bool), settling: DayFreshness?) {
        self.measurements = measurements
        self.events = events
        self.profiles = profiles
        self.derived = derived
        self.recordings = recordings
        self.direct = direct
        self.settling = settling
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
    /// whose rows changed and the days of the derived rows listed as pending with them (a killed run
    /// leaves them listed), profiles, derived rows, routes, ECGs and motion sessions moved, the
    /// imports log's new rows counted — and, settling, the fresh days taken off the list.
    private func run(_ db: PGConnection) throws {
        try db.transaction {
            var newRows: [Int64: Int64] = [:]
            for (i, staged) in [measurements, events].enumerated() {
                let flushed = try staged.flush(db, direct: i == 0 ? direct.measurements : direct.events)
                changed.formUnion(flushed.changed)
                contested.formUnion(flushed.contested)
                if i == 0 { mostlyStored.measurements = staged.mostlyStored(flushed.moved) } else { mostlyStored.events = staged.mostlyStored(flushed.moved) }
                for m in flushed.moved {
                    if let id = m.importID, m.changed > 0 { newRows[id, default: 0] += m.changed }
                }
            }
            var settled: [PendingDay] = []
            if var freshness = settling {
                freshness.note(changed: changed, contested: contested)
                settled = freshness.freshDays.map { PendingDay(subject: $0.subject, day: $0.day) }
                    + freshness.freshSubjects.map { PendingDay(subject: $0, day: nil) }
            }
            try PostgresPendingDays.add(PostgresPendingDays.unnestRows(changed.union(derived.days).subtracting(settled)), in: db)
            try profiles.flush(db)
            try derived.flush(db, newKeys: true)
            for (id, n) in try recordings.flush(db) {
                if let id, n > 0 { newRows[id, default: 0] += n }
            }
            try PostgresPendingDays.remove(PostgresPendingDays.unnestRows(settled), in: db)
            for (id, n) in newRows.sorted(by: { $0.key < $1.key }) {
                try db.query("UPDATE imports SET new_rows = new_rows + $2 WHERE id = $1", [String(id), String(n)])
            }
        }
    }
}

extension DayFreshness {
    /// Takes in what a transaction learnt; a row with no day (an episode) counts on the whole subject.
    mutating func note(changed: Set<StagedReadings.PendingDay>, contested: Set<StagedReadings.PendingDay>) {
        for d in contested {
            if let day = d.day { contest(Key(subject: d.subject, day: day)) } else { noteWholeSubject(d.subject, contested: true) }
        }
        for d in changed {
            if let day = d.day { touch(Key(subject: d.subject, day: day)) } else { noteWholeSubject(d.subject, contested: false) }
        }
    }
}
