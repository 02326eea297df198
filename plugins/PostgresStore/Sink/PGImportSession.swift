import Foundation
import HealthPipeCore

/// The `postgres` sink importing: readings and events are staged and moved in one transaction per
/// `batchRows` rows (COPY into the stage, INSERT … ON CONFLICT into the table), so a killed run
/// loses at most the open transaction and a re-run completes it.
///
/// Derived rows follow the store (docs/scale-out.md): each local day whose readings or events change
/// is listed in `derived_pending` in the transaction that changes them (a changed episode, which may
/// count on any later day, lists its subject whole; days whose rows were all there already keep
/// their derived rows, which stay exact). When the stream's derivation steps are the store's
/// settings (`derivedFromStream`), the daily rows of days that look fresh (`DayFreshness`, the rule
/// SQLite's sink keeps: nothing stored for the day before, every row of it inserted new — which the
/// upsert counts per day —, no open episode over it; a changed episode of a subject the store held
/// anything of makes none of its days fresh) are stored as they come, listed pending in the same
/// transaction; the run's last transaction, when the run completes, takes the days still fresh off
/// the list. Every other changed day is left pending, for the refresh the command runs next (or any
/// later one).
final class PGImportSession {
    /// Transactions run here, on the writer thread (`PGBatchJob`).
    let db: PGConnection
    /// Look-ups while a transaction runs: a subject's first sight, import and device ids (autocommit).
    private let lookups: PGConnection
    private var job: PGBatchJob?
    private let batchRows: Int
    private let imports: PGImportLog
    private let devices: PGDevices
    private let series: PGSeries
    private let derivedFromStream: Bool
    private var measurements = StagedReadings(.measurements)
    private var events = StagedReadings(.events)
    /// Off once a row met a stored key: the rest of the run goes the staged way.
    private var directCopies = true
    private var profiles = StagedTable(.profiles)
    private var derived = DerivedStages()
    private var recordings = RecordingStages()
    /// Times each key was staged in the open transaction: a row's generation.
    private var measurementKeys: [MeasurementKey: Int] = [:]
    private var eventKeys: [EventKey: Int] = [:]
    private var kinds: [Event.Kind: Symbol] = [:]

    private struct EventKey: Hashable { var subject: Symbol, kind: Event.Kind, subtype: Symbol, source: Symbol, start: Int64, amount: Double }

    /// Subjects seen in this run, and which of their days are fresh as far as the finished
    /// transactions tell.
    private var subjects: [Symbol] = []
    /// Readings and events handed to transactions in this run (`analyzeIfGrown`).
    private var readingsSent = 0
    private var freshness = DayFreshness()

    init(url: PostgresURL, batchRows: Int, run: RunInfo, trustedSteps: Set<String>) throws {
        db = try PostgresSchema.open(url)
        lookups = try PGConnection(url)
        self.batchRows = batchRows
        imports = PGImportLog(db: lookups, startedAt: run.startedAt)
        devices = PGDevices(db: lookups)
        series = PGSeries(db: lookups)
        let stored = Set(try PostgresDerivationSettings.read(db).map(\.step))
        derivedFromStream = DerivationSettings.streamDerives(storedSteps: stored, trusted: trustedSteps)
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
            let importID = try imports.id(of: m.provenance.file), deviceID = try devices.id(of: m.device), series = try series.id(of: m)
            if generation == 0 {
                measurements.buffer.measurement(m, series: series, importID: importID, deviceID: deviceID)
                measurements.stored.note(series: series, start: m.start)
            } else {
                measurements.later.measurement(m, series: series, importID: importID, deviceID: deviceID)
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
            if e.kind == .episode { freshness.noteWholeSubject(e.subject, contested: false) }
        }
        for p in batch.profiles {
            profiles.buffer.profile(p, importID: try imports.id(of: p.provenance.file))
            profiles.endRow(subject: p.subject)
            profiles.duplicates = true
        }
        try stage(routes: batch.routes, electrocardiograms: batch.electrocardiograms, motionSessions: batch.motionSessions)
        if derivedFromStream {
            // As in SQLite: daily summaries and single-day metric sets of days that may be fresh (they
            // can come before the day's readings); forecasts and alerts, which depend on whole
            // histories, only ever come from the refresh.
            for d in batch.dailySummaries {
                try see(d.subject)
                if freshness.mayBeFresh(.init(subject: d.subject, day: d.day)) { derived.add(d) }
            }
            for m in batch.metricSets where m.firstDay == m.lastDay {
                try see(m.subject)
                if freshness.mayBeFresh(.init(subject: m.subject, day: m.firstDay)) { derived.add(m) }
            }
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

    /// First sight of a subject in this run, before any row of it is written: is anything of it
    /// stored already, which of its days have daily rows or are pending, and where its open episodes start.
    private func see(_ subject: Symbol) throws {
        guard !freshness.knows(subject) else { return }
        let found = try lookups.query("""
            SELECT \(PGSeriesSQL.subjectHasReadings("$1::text")) OR EXISTS (SELECT 1 FROM events WHERE subject = $1)
                OR EXISTS (SELECT 1 FROM derived_pending WHERE subject = $1),
                (SELECT min(start + utc_offset) FROM events WHERE subject = $1 AND kind = 'episode'
                    AND flags & \(RecordFlags.openEnded.rawValue) != 0)
            """, [subject.text])
        let stored = found.text(0, 0) == "t"
        var days: Set<Int64>? = []
        if stored {
            let rows = try lookups.query("SELECT day FROM daily_summaries WHERE subject = $1 UNION SELECT day FROM derived_pending WHERE subject = $1",
                                         [subject.text])
            for r in 0..<rows.count {
                guard let text = rows.text(r, 0) else { continue }
                if let d = CivilDate.days(fromISO: text) { days?.insert(d) } else { days = nil; break }  // `*`: pending whole
            }
        }
        freshness.learn(subject, storedDays: days, openEpisodesFrom: found.isNull(0, 1) ? nil : CivilDate.floorDiv(found.int(0, 1), 86_400),
                        isNew: !stored)
        subjects.append(subject)
    }

    /// Hands the staged rows to a transaction of their own (`PGBatchJob`), once the previous one is done,
    /// and goes on encoding. `settling`: the run's last transaction, which takes the fresh days off the list.
    func commit(settling: Bool = false) throws {
        try waitForTransaction()
        guard stagedRows > 0 || settling else { return }
        readingsSent += measurements.rows + events.rows
        let next = PGBatchJob(measurements: measurements, events: events, profiles: profiles, derived: derived, recordings: recordings,
                              direct: (mayCopy(measurements), mayCopy(events)), settling: settling ? freshness : nil)
        measurements.reset(); events.reset(); profiles.reset(); derived = DerivedStages(); recordings.reset()
        measurementKeys.removeAll(keepingCapacity: true)
        eventKeys.removeAll(keepingCapacity: true)
        next.start(on: db)
        job = next
    }

    /// Whether rows may be copied straight in: most of them lie on days that had nothing stored (a
    /// row that counts on every day, only of a subject new to the store), so a stored key among them
    /// — which undoes the copy, and turns copying off for the run — is unlikely.
    private func mayCopy(_ staged: StagedReadings) -> Bool {
        let unstored = staged.rows(onDays: { d in
            d.day.map { freshness.isUnstored(.init(subject: d.subject, day: $0)) } ?? freshness.newSubjects.contains(d.subject)
        })
        return directCopies && 2 * unstored > staged.rows
    }

    /// Waits for the transaction in flight and takes in what it learnt.
    private func waitForTransaction() throws {
        guard let running = job else { return }
        job = nil
        try running.wait()
        freshness.note(changed: running.changed, contested: running.contested)
        if !running.contested.isEmpty { directCopies = false }
        if let stored = running.mostlyStored.measurements { measurements.skipStored = stored }
        if let stored = running.mostlyStored.events { events.skipStored = stored }
    }

    /// Commits what is staged — for a completed run taking the days whose stream rows are exact off
    /// the pending list in the same transaction — and records each file's outcome. Returns the
    /// subjects it wrote.
    func finish(outcome: RunOutcome, report: RunReport, finishedAt: Int64) throws -> [String] {
        var commitError: Error?
        do {
            try commit(settling: outcome == .completed && derivedFromStream)
            try waitForTransaction()
        } catch { commitError = error }
        let status = (commitError == nil ? outcome : .failed).importStatus
        try lookups.transaction { try imports.finish(inputs: report.inputs, status: status, finishedAt: finishedAt) }
        if let commitError { throw commitError }
        try analyzeIfGrown()
        return subjects.map(\.text).sorted()
    }

    /// Refreshes the planner's statistics of the readings when this run may have grown them by a tenth or
    /// more (or they have none): the views' queries choose between a key-ordered probe and a scan of a
    /// series by them, and a store just imported would otherwise wait for autovacuum — a `page` right
    /// after importing 3M readings took 2.5 s instead of 0.08 s. About 0.2 s on that store; a small
    /// append into a large one skips it.
    private func analyzeIfGrown() throws {
        guard readingsSent > 0 else { return }
        let known = try lookups.query("SELECT reltuples FROM pg_class WHERE oid = 'measurement_rows'::regclass").double(0, 0)
        guard known < 0 || Double(readingsSent) > 0.1 * known else { return }
        try lookups.execute("ANALYZE measurement_series, measurement_rows, events")
    }
}

/// PostgreSQL array literals for one text parameter (`{"a","b"}`), so a list is one `$1`.
enum PGArray {
    static func text(_ items: [String]) -> String {
        "{" + items.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
