/// Where every source's records pass before anything downstream sees them (`GraphRunner` calls it
/// on each batch a source emits, so a new source cannot skip it): a record whose instants are not
/// plausible (`PlausibleTime`) is rejected under the stage's error policy — quarantined with its
/// file, line and reason — instead of being stored and breaking every day-based view later.
public enum RecordGate {
    /// Removes the implausible records from `batch`, rejecting each through `context`.
    public static func admit(_ batch: inout RecordBatch, context: StageContext) throws {
        try filter(&batch.measurements, context, problem: { m in PlausibleTime.problem(start: m.start, end: m.end) },
                   describe: { m in (m.provenance, "\(m.metric.text) \(m.value) at \(m.start)") }, tally: .measurements)
        try filter(&batch.events, context, problem: { e in PlausibleTime.problem(start: e.start, end: e.end) },
                   describe: { e in (e.provenance, "\(e.kind) event at \(e.start)") }, tally: .events)
        try filter(&batch.entries, context, problem: { e in PlausibleTime.problem(start: e.event.start, end: e.event.end) },
                   describe: { e in (e.event.provenance, "entry \(e.id) at \(e.event.start)") })
        try filter(&batch.reports, context, problem: { r in PlausibleTime.problem(r.start, what: "report time") },
                   describe: { r in (r.provenance, "report \(r.id) at \(r.start)") })
        try filter(&batch.routes, context, problem: { r in PlausibleTime.problem(start: r.start, end: r.end) },
                   describe: { r in (r.provenance, "route \(r.name) \(r.start)–\(r.end)") })
        try filter(&batch.electrocardiograms, context, problem: { e in PlausibleTime.problem(e.start, what: "recording time") },
                   describe: { e in (e.provenance, "electrocardiogram at \(e.start)") })
    }

    /// `problem` runs on every record (integer compares only); `describe` only on a rejected one.
    private enum Tally { case measurements, events, other }

    private static func filter<T>(_ records: inout [T], _ context: StageContext, problem: (T) -> String?,
                                  describe: (T) -> (Provenance, String), tally: Tally = .other) throws {
        guard records.contains(where: { problem($0) != nil }) else { return }
        var kept: [T] = []
        kept.reserveCapacity(records.count)
        for r in records {
            guard let reason = problem(r) else { kept.append(r); continue }
            let (provenance, raw) = describe(r)
            try context.reject(RowError(file: provenance.file.text, line: provenance.line, reason: reason, raw: raw))
            switch tally {
            case .measurements: context.noteGated(file: provenance.file.text, measurements: 1)
            case .events: context.noteGated(file: provenance.file.text, events: 1)
            case .other: context.noteGated(file: provenance.file.text, other: 1)
            }
        }
        records = kept
    }
}
