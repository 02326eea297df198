import Foundation
import HealthPipeCore

/// The `postgres` sink importing: readings and events are staged and moved in one transaction per
/// `batchRows` rows (COPY into the stage, INSERT … ON CONFLICT into the table), so a killed run
/// loses at most the open transaction and a re-run completes it.
///
/// Derived rows follow the store (docs/scale-out.md): each local day whose readings or events change
/// is listed in `derived_pending` in the transaction that changes them (a changed episode, which may
/// count on any later day, lists its subject whole; days whose rows were all there already keep
/// their derived rows, which stay exact). When the stream's derivation steps are
/// the store's settings (`derivedFromStream`), the daily rows of subjects the store had nothing of are
/// stored as they come, and such a subject whose readings were all new — no key twice — is taken off
/// the list when the run completes: its rows are exactly what re-aggregation computes. Every other
/// changed subject is left pending, for the refresh the command runs next (or any later one).
final class PGImportSession {
    /// Transactions run here, on the writer thread (`PGBatchJob`).
    let db: PGConnection
    /// Look-ups while a transaction runs: a subject's first sight, import and device ids (autocommit).
    private let lookups: PGConnection
    private var job: PGBatchJob?
    private let batchRows: Int
    private let imports: PGImportLog
    private let devices: PGDevices
    private let derivedFromStream: Bool
    private var measurements = StagedReadings(.measurements)
    private var events = StagedReadings(.events)
    /// Off once a direct copy met a stored key: the rest of the run goes the staged way.
    private var directCopies = true
    private var profiles = StagedTable(.profiles)
    private var derived = DerivedStages()
    private var recordings = RecordingStages()
    /// Times each key was staged in the open transaction: a row's generation.
    private var measurementKeys: [MeasurementKey: Int] = [:]
    private var eventKeys: [EventKey: Int] = [:]
    private var kinds: [Event.Kind: Symbol] = [:]

    private struct EventKey: Hashable { var subject: Symbol, kind: Event.Kind, subtype: Symbol, source: Symbol, start: Int64, amount: Double }

    /// Subjects seen in this run: whether the store had nothing of theirs before, and whether every
    /// row of theirs was a fresh insert so far.
    private(set) var subjects: [Symbol: (fresh: Bool, clean: Bool)] = [:]

    init(url: PostgresURL, batchRows: Int, run: RunInfo, trustedSteps: Set<String>) throws {
        db = try PostgresSchema.open(url)
        lookups = try PGConnection(url)
        self.batchRows = batchRows
        imports = PGImportLog(db: lookups, startedAt: run.startedAt)
        devices = PGDevices(db: lookups)
        let stored = Set(try PostgresDerivationSettings.read(db).map(\.step))
        derivedFromStream = !stored.isEmpty && stored.subtracting(DerivationSettings.storeOnlySteps).isSubset(of: trustedSteps)
        for t in PGTable.all { try db.execute(t.createStage()) }
        try lookups.transaction { for path in run.inputPaths { try imports.start(path: path) } }
    }

    private var stagedRows: Int { measurements.rows + events.rows + profiles.buffer.rows + derived.rows + recordings.rows }

    func write(_ batch: RecordBatch) throws {
        let readings = batch.measurements.contains { $0.flags.contains(.interpolated) }
            ? batch.measurements.filter { !$0.flags.contains(.interpolated) } : batch.measurements
        for (i, m) in readings.enumerated() {
            // As the SQLite sink: a reading followed at once by another with its key from the same file
            // (two LibreView scans in one minute) is superseded, not written.
            if i + 1 < readings.count, Self.sameKey(m, readings[i + 1]) { continue }
            try see(m.subject)
            let generation = measurementKeys[m.naturalKey, default: 0]
            measurementKeys[m.naturalKey] = generation + 1
            let importID = try imports.id(of: m.provenance.file), deviceID = try devices.id(of: m.device)
            if generation == 0 {
                measurements.buffer.measurement(m, importID: importID, deviceID: deviceID)
            } else {
                measurements.later.measurement(m, importID: importID, deviceID: deviceID)
            }
            measurements.endRow(subject: m.subject, importID: importID, generation: generation, day: m.localDay)
        }
        for e in batch.events {
            try see(e.subject)
            let key = EventKey(subject: e.subject, kind: e.kind, subtype: e.subtype, source: e.source, start: e.start,
                               amount: e.insulin ?? e.carbs ?? 0)
            let generation = eventKeys[key, default: 0]
            eventKeys[key] = generation + 1
            let kind = kinds[e.kind] ?? { let s = Symbol(e.kind.rawValue); kinds[e.kind] = s; return s }()
            let importID = try imports.id(of: e.provenance.file), deviceID = try devices.id(of: e.device)
            if generation == 0 {
                events.buffer.event(e, kind: kind, importID: importID, deviceID: deviceID)
            } else {
                events.later.event(e, kind: kind, importID: importID, deviceID: deviceID)
            }
            events.endRow(subject: e.subject, importID: importID, generation: generation,
                          day: e.kind == .episode ? nil : e.localDay)
        }
        for p in batch.profiles {
            profiles.buffer.profile(p, importID: try imports.id(of: p.provenance.file))
            profiles.endRow(subject: p.subject)
            profiles.duplicates = true
        }
        try stage(routes: batch.routes, electrocardiograms: batch.electrocardiograms, motionSessions: batch.motionSessions)
        if derivedFromStream {
            // As in SQLite: daily summaries and single-day metric sets, of subjects the store had nothing
            // of (any other subject is re-derived from the store); forecasts and alerts, which depend on
            // whole histories, only ever come from the refresh.
            for d in batch.dailySummaries where subjects[d.subject]?.fresh == true { derived.add(d) }
            for m in batch.metricSets where m.firstDay == m.lastDay && subjects[m.subject]?.fresh == true { derived.add(m) }
        }
        // A live stream may run for days: a finished session is committed at once, as SQLite does.
        if stagedRows >= batchRows || !batch.motionSessions.isEmpty { try commit() }
    }

    private func stage(routes: [WorkoutRoute], electrocardiograms: [Electrocardiogram], motionSessions: [MotionSession]) throws {
        for r in routes {
            recordings.routes.parents.route(r, importID: try imports.id(of: r.provenance.file), deviceID: try devices.id(of: r.device))
            let route = recordings.routes.endParent()
            for (seq, p) in r.points.enumerated() { recordings.routes.children.routePoint(p, route: route, seq: seq) }
        }
        for e in electrocardiograms {
            recordings.electrocardiograms.parents.electrocardiogram(e, importID: try imports.id(of: e.provenance.file),
                                                                  deviceID: try devices.id(of: e.device))
            let ecg = recordings.electrocardiograms.endParent()
            for (seq, v) in e.microvolts.enumerated() { recordings.electrocardiograms.children.ecgSample(v, ecg: ecg, seq: seq) }
        }
        for m in motionSessions {
            recordings.motionSessions.buffer.motionSession(m, importID: try imports.id(of: m.provenance.file))
            recordings.motionSessions.endRow(subject: m.subject)
        }
    }

    @inline(__always)
    static func sameKey(_ a: HealthPipeCore.Measurement, _ b: HealthPipeCore.Measurement) -> Bool {
        a.start == b.start && a.end == b.end && a.source == b.source && a.metric == b.metric && a.subject == b.subject
            && a.provenance.file == b.provenance.file
    }

    /// First sight of a subject in this run: is anything of it stored already?
    private func see(_ subject: Symbol) throws {
        guard subjects[subject] == nil else { return }
        let stored = try lookups.query("""
            SELECT EXISTS (SELECT 1 FROM measurements WHERE subject = $1) OR EXISTS (SELECT 1 FROM events WHERE subject = $1)
                OR EXISTS (SELECT 1 FROM derived_pending WHERE subject = $1)
            """, [subject.text]).text(0, 0) == "t"
        subjects[subject] = (!stored, !stored)
    }

    /// Hands the staged rows to a transaction of their own (`PGBatchJob`), once the previous one is done,
    /// and goes on encoding.
    func commit() throws {
        try waitForTransaction()
        guard stagedRows > 0 else { return }
        let next = PGBatchJob(measurements: measurements, events: events, profiles: profiles, derived: derived, recordings: recordings,
                              fresh: Set(subjects.filter { $0.value.fresh }.keys), directCopies: directCopies)
        measurements.reset(); events.reset(); profiles.reset(); derived = DerivedStages(); recordings.reset()
        measurementKeys.removeAll(keepingCapacity: true)
        eventKeys.removeAll(keepingCapacity: true)
        next.start(on: db)
        job = next
    }

    /// Waits for the transaction in flight and takes in what it learnt.
    private func waitForTransaction() throws {
        guard let running = job else { return }
        job = nil
        try running.wait()
        for s in running.unclean { subjects[s]?.clean = false }
        if !running.unclean.isEmpty { directCopies = false }
        if let stored = running.mostlyStored.measurements { measurements.skipStored = stored }
        if let stored = running.mostlyStored.events { events.skipStored = stored }
    }

    /// Commits what is staged, records each file's outcome, and — for a completed run — takes the
    /// subjects whose stream rows are exact off the pending list. Returns the subjects it wrote.
    func finish(outcome: RunOutcome, report: RunReport, finishedAt: Int64) throws -> [String] {
        var commitError: Error?
        do {
            try commit()
            try waitForTransaction()
        } catch { commitError = error }
        let status = (commitError == nil ? outcome : .failed).importStatus
        try lookups.transaction { try imports.finish(inputs: report.inputs, status: status, finishedAt: finishedAt) }
        try db.transaction {
            let exact = subjects.filter { $0.value.fresh && $0.value.clean }.map(\.key.text)
            if status == "complete", derivedFromStream, !exact.isEmpty {
                try db.query("DELETE FROM derived_pending WHERE subject = ANY($1::text[])", [PGArray.text(exact)])
            }
        }
        if let commitError { throw commitError }
        return subjects.keys.map(\.text).sorted()
    }
}

/// PostgreSQL array literals for one text parameter (`{"a","b"}`), so a list is one `$1`.
enum PGArray {
    static func text(_ items: [String]) -> String {
        "{" + items.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
