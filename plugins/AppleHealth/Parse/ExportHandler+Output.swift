import CLibXML2
import Foundation
import HealthPipeCore

/// Records leave in batches of `batchSize`; meals no Food correlation claimed leave at the end.
extension ExportHandler {
    func add(_ m: consuming HealthPipeCore.Measurement) {
        batch.measurements.append(m)
        measurements += 1
        if batch.count >= Self.batchSize { flushBatch() }
    }

    func add(_ e: consuming Event) {
        batch.events.append(e)
        events += 1
        if batch.count >= Self.batchSize { flushBatch() }
    }

    func add(_ p: SubjectProfile) {
        batch.profiles.append(p)
    }

    /// A route carries all its points: a few per batch.
    func add(_ r: WorkoutRoute) {
        batch.routes.append(r)
        if batch.routes.count >= 4 || batch.count >= Self.batchSize { flushBatch() }
    }

    func flushBatch() {
        guard !batch.isEmpty else { return }
        ready.append(batch)
        batch = RecordBatch()
        batch.reserve(Self.batchSize)
    }

    /// End of input: meals that no Food correlation claimed, then the last batch. `drain` takes each
    /// batch as it fills, so years of meals are not all held as events at once.
    func finish(drain: () throws -> Void) rethrows {
        try ledger.drain { p in
            add(Event(subject: options.subject, kind: .meal, source: p.source, start: p.start, end: p.end,
                      utcOffset: p.offset, carbs: p.carbs, flags: p.flags,
                      provenance: Provenance(file: file, line: p.line), device: p.device))
            if !ready.isEmpty { try drain() }
        }
        flushBatch()
        try drain()
    }
}
