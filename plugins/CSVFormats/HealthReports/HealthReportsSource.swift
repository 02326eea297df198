import Foundation
import HealthPipeCore

/// Health reports and manual entries from a CSV file (layouts: `HealthReportsLayout`). Each report
/// is checked as a typed one is (`ReportDraft`: at least two values, importance 1–5, known units);
/// a bad row is rejected with its line and reason and every valid one still lands. Rows of one
/// report may stand anywhere in the file, so reports are gathered and emitted at the end (a
/// personal log holds a few a day); entries go out as they are read.
final class HealthReportsSource: Source, InputDescribing {
    static let format = "health-reports"
    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    static let patterns = ["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"]
        .map { try! TimestampPattern($0) }

    private struct Pending { var draft: ReportDraft; var line: Int64; var raw: String }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let input = try CSVInput(path: options.path)
        let delimiter = input.head.lines(1).first.map(HeaderText.sniffDelimiter) ?? UInt8(ascii: ",")
        let file = Symbol(options.path)
        var layout: HealthReportsLayout?
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: options.path, format: Self.format)
        var reports: [String: Pending] = [:]
        var order: [String] = []
        var subjects = ByteSymbolCache()
        // Entries follow their events (which the batches count) in one batch at the end.
        var entries: [ManualEntry] = []
        let now = Int64(Date().timeIntervalSince1970)

        try CSVFileRun(input: input, format: Self.format, context: context).run(delimiter: delimiter, emit: emit) { row, out in
            guard let l = layout else {
                if row.isBlank { return }
                switch HealthReportsLayout.read(row.strings()) {
                case nil:
                    throw InputError(file: options.path, line: row.line, reason: "not a health-reports CSV: the header needs a time "
                                     + "column and either metric, value, importance columns or value columns with importance columns")
                case .failure(let p)?: throw InputError(file: options.path, line: row.line, reason: p.message)
                case .success(let found)?: layout = found
                }
                return
            }
            if row.isBlank { return }
            let at = try Self.notAhead(try placer.place(try time(row, l), line: row.line), "time", now: now)
            let subject = l.subject.flatMap { row.isEmpty($0) ? nil : subjects.symbol(row.trimmed($0)) } ?? options.subject
            let id = l.id.flatMap { row.isEmpty($0) ? nil : row.trimmed($0).text }
            let note = l.note.flatMap { row.isEmpty($0) ? nil : row.trimmed($0).text }
            let provenance = Provenance(file: file, line: row.line)

            if l.shape == .long, let kind = EntryKind.fileMetric(row.trimmed(l.metric).text) {
                var d = EntryDraft(kind: kind.kind, id: id, subject: subject, start: at.utc, utcOffset: at.offset)
                d.timeFlags = at.flags
                d.openWithoutEnd = false
                d.basal = kind.basal
                d.note = note
                switch kind.kind {
                case .insulin: d.units = try number(row, l.value, "value")
                case .meal: d.carbs = try number(row, l.value, "value"); d.name = note; d.note = nil
                case .exercise: d.minutes = try number(row, l.value, "value"); d.name = note; d.note = nil
                default: break  // an episode: its time (and `end`) say it all
                }
                if let e = l.end, !row.isEmpty(e) {
                    d.end = try Self.notAhead(try placer.place(try Self.parse(row.trimmed(e), "end"), line: row.line), "end", now: now).utc
                }
                var entry = try d.entry().rejecting()
                entry.event.provenance = provenance
                entries.append(entry)
                try out.add(entry.event, emit)
                return
            }

            let key = subject.text + "\u{0}" + (id ?? String(at.utc))
            var p = reports[key] ?? Pending(draft: ReportDraft(id: id, subject: subject, start: at.utc, utcOffset: at.offset),
                                            line: row.line, raw: row.rawText)
            if p.draft.start != at.utc { throw CSVFileRun.Reject("report '\(id ?? "")' has rows at two times") }
            if p.draft.note == nil { p.draft.note = note }
            for (metric, unit, number, importance) in try values(row, l) {
                let v = try HealthValueText.value(metric: metric, number: number, unit: unit, importance: importance).rejecting()
                if let problem = p.draft.add(v) { throw CSVFileRun.Reject(problem.message) }
            }
            if reports[key] == nil { order.append(key) }
            reports[key] = p
        }

        var out = RecordBatch()
        out.entries = entries
        var readings: Int64 = 0
        for key in order {
            let p = reports[key]!
            switch p.draft.report() {
            case .failure(let problem):
                try context.reject(RowError(file: options.path, line: p.line, reason: "report at line \(p.line): \(problem.message)", raw: p.raw))
            case .success(var r):
                r.provenance = Provenance(file: file, line: p.line)
                out.reports.append(r)
                out.measurements += r.measurements
                readings += Int64(r.values.count)
                if out.reports.count >= 1024 {
                    try emit(out)
                    out = RecordBatch()
                }
            }
        }
        if !out.isEmpty { try emit(out) }
        // The reports' readings count for the file, as every source's readings do.
        if !context.inputs.isEmpty { context.updateInput(context.inputs.count - 1) { $0.measurements += readings } }
    }

    /// A person's own record more than a day past the clock is a typing mistake (PlausibleTime's one rule).
    private static func notAhead(_ r: ZoneResolver.Resolved, _ name: String, now: Int64) throws -> ZoneResolver.Resolved {
        if let why = PlausibleTime.aheadProblem(name, utc: r.utc, offset: r.offset, now: now) { throw CSVFileRun.Reject(why) }
        return r
    }

    private func time(_ row: CSVRow, _ l: HealthReportsLayout) throws -> ParsedTimestamp {
        if let d = l.date {
            let text = row.trimmed(d).text + "T" + row.trimmed(l.time).text
            return try Self.parse(text, "time")
        }
        return try Self.parse(row.trimmed(l.time), "time")
    }

    static func parse(_ cell: UnsafeRawBufferPointer, _ column: String) throws -> ParsedTimestamp {
        for p in patterns { if let t = p.parse(cell) { return t } }
        throw CSVFileRun.Reject(cell.isEmpty ? "no \(column)" : "\(column) '\(cell.text)' is not a time such as 2024-03-05 20:00")
    }

    static func parse(_ text: String, _ column: String) throws -> ParsedTimestamp {
        for p in patterns { if let t = p.parse(text) { return t } }
        throw CSVFileRun.Reject("\(column) '\(text)' is not a time such as 2024-03-05 20:00")
    }

    private func number(_ row: CSVRow, _ column: Int, _ name: String) throws -> Double {
        guard let v = ByteText.double(row.trimmed(column)), v.isFinite else {
            throw CSVFileRun.Reject(row.isEmpty(column) ? "no \(name)" : "\(name) '\(row.trimmed(column).text)' is not a number")
        }
        return v
    }

    private func importance(_ row: CSVRow, _ column: Int) throws -> Int {
        guard let v = ByteText.double(row.trimmed(column)), v == v.rounded(), let i = Int(exactly: v) else {
            throw CSVFileRun.Reject(row.isEmpty(column) ? "no importance" : "importance '\(row.trimmed(column).text)' is not a whole number 1–5")
        }
        return i
    }

    /// The row's values: one (long) or one per filled value column (wide).
    private func values(_ row: CSVRow, _ l: HealthReportsLayout) throws -> [(String, String, Double, Int)] {
        switch l.shape {
        case .long:
            let unit = l.unit.map { row.trimmed($0).text } ?? ""
            return [(row.trimmed(l.metric).text, unit, try number(row, l.value, "value"), try importance(row, l.importance!))]
        case .wide:
            var out: [(String, String, Double, Int)] = []
            for v in l.values where !row.isEmpty(v.column) {
                let (n, unit) = HealthValueText.splitNumber(row.trimmed(v.column).text)
                guard let n else { throw CSVFileRun.Reject("\(v.metric) '\(row.trimmed(v.column).text)' is not a number") }
                out.append((v.metric, unit.isEmpty ? v.unit : unit, n, try importance(row, v.importance)))
            }
            return out
        }
    }
}

extension EntryKind {
    /// A long-layout metric that names an entry rather than a health value.
    static func fileMetric(_ text: String) -> (kind: EntryKind, basal: Bool)? {
        switch text.lowercased() {
        case "insulin", "bolus", "bolus_insulin": return (.insulin, false)
        case "basal", "basal_insulin": return (.insulin, true)
        case "carbs", "meal": return (.meal, false)
        case "exercise": return (.exercise, false)
        case "illness": return (.illness, false)
        case "stress": return (.stress, false)
        default: return nil
        }
    }
}

extension Result where Failure == EntryProblem {
    /// The value, or the row rejected with the problem's words.
    func rejecting() throws -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let p): throw CSVFileRun.Reject(p.field.map { ["values", "id"].contains($0) ? p.message : "\($0): \(p.message)" } ?? p.message)
        }
    }
}

public let healthReportsComponent = ComponentDescriptor(
    name: HealthReportsSource.format, role: .source, family: "CSVFormats",
    summary: """
        Health reports (seed 004) and manual entries from a CSV: long (time, metric, value, unit, importance, note; \
        rows of one time are one report; metrics insulin, basal, carbs, exercise, illness, stress are entries) or wide \
        (time, a column per value with an importance column each, note). Values are checked and converted as typed \
        ones are. Times without an offset need a zone. See docs/reports.md.
        """,
    options: CSVCommonOptions.docs,
    produces: [.measurements, .events, .reports, .entries],
    detect: { HealthReportsLayout.detectScore($0) },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["time", "metric", "value", "unit", "importance", "note"],
    build: { b in
        HealthReportsSource(options: try CSVCommonOptions.read(b))
    })
