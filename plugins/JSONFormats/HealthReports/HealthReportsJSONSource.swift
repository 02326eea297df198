import Foundation
import HealthPipeCore

/// Health reports and manual entries from JSON — a top-level array or one object per line, as
/// `healthpipe reports list --json` and `healthpipe entries list --json` print them:
/// a report `{"id", "time", "note", "values": [{"metric", "value", "unit", "importance"}]}`;
/// an entry `{"id", "kind": insulin|meal|exercise|illness|stress, "start", "end", "units", "type",
/// "carbs_g", "protein_g", "fat_g", "name", "minutes", "intensity", "open", "note"}`.
/// Each is checked as a typed one is (`ReportDraft`, `EntryDraft`); a bad object is rejected with its
/// line and JSON path and every valid one lands.
final class HealthReportsJSONSource: Source, InputDescribing {
    static let format = "health-reports-json"
    let path: String
    let zone: TimeZone?
    let subject: Symbol
    var inputPaths: [String] { [path] }

    init(path: String, zone: TimeZone?, subject: Symbol) {
        self.path = path
        self.zone = zone
        self.subject = subject
    }

    enum F {
        static let paths = ["id", "subject", "time", "start", "end", "note", "values", "kind", "units", "type", "basal", "carbs_g",
                            "carbs", "protein_g", "protein", "fat_g", "fat", "name", "minutes", "intensity", "open"]
        static let table = JSONPathTable(paths)
        static func slot(_ name: String) -> Int { paths.firstIndex(of: name)! }
        static let id = slot("id"), subject = slot("subject"), time = slot("time"), start = slot("start"), end = slot("end")
        static let note = slot("note"), values = slot("values"), kind = slot("kind"), units = slot("units"), type = slot("type")
        static let basal = slot("basal"), carbsG = slot("carbs_g"), carbs = slot("carbs"), proteinG = slot("protein_g")
        static let protein = slot("protein"), fatG = slot("fat_g"), fat = slot("fat"), name = slot("name")
        static let minutes = slot("minutes"), intensity = slot("intensity"), open = slot("open")
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let file = Symbol(path)
        let now = Int64(Date().timeIntervalSince1970)
        try JSONFileRun(path: path, format: Self.format, context: context)
            .run(table: F.table, emit: emit, tally: RowTally(types: Self.types), type: Self.slot) { doc, out in
            let subject = doc.string(F.subject).map { Symbol($0) } ?? self.subject
            let provenance = Provenance(file: file, line: doc.line)
            if doc.present(F.values) {
                var r = try report(doc, subject: subject, now: now).rejecting(doc)
                r.provenance = provenance
                out.add(r)
            } else if doc.present(F.kind) {
                var entry = try self.entry(doc, subject: subject, now: now).rejecting(doc)
                entry.event.provenance = provenance
                out.add(entry)
            } else {
                throw JSONFileRun.Reject("neither a report (values) nor an entry (kind)")
            }
            return .stored
        }
    }

    /// The run report's types: a report, then each entry kind (docs/reliability.md, "Every row accounted for").
    static let types = ["report"] + EntryKind.allCases.filter { $0 != .report }.map(\.rawValue)

    /// A report by its `values`, an entry by its `kind` (as `EntryKind` reads it, in any case); a kind
    /// that is none of them counts as unknown under its own text (it is quarantined), an object with
    /// neither under no type.
    static func slot(_ doc: JSONDocument, _ tally: inout RowTally) -> Int {
        if doc.present(F.values) { return 0 }
        guard let kind = doc.withText(F.kind, { $0.isEmpty ? nil : $0 }) ?? nil else { return tally.untyped }
        let text = String(decoding: kind, as: UTF8.self).lowercased()
        if let i = types.firstIndex(of: text) { return i }
        return tally.slot(named: kind, known: false)
    }

    private func report(_ doc: JSONDocument, subject: Symbol, now: Int64) throws -> Result<HealthReport, EntryProblem> {
        let t = try time(doc, F.time, "time", now: now)
        var draft = ReportDraft(id: doc.string(F.id), subject: subject, start: t.utc, utcOffset: t.offset, note: doc.string(F.note))
        for (i, v) in doc.children(of: doc.node(F.values)).enumerated() {
            func field(_ name: String) -> Int? { doc.child(of: v, named: name) }
            guard let metric = field("metric").flatMap({ doc.string(node: $0) }) else {
                throw JSONFileRun.Reject("a value without its metric", at: doc.path(ofSlot: F.values) + "[\(i)]")
            }
            guard let number = field("value").flatMap({ doc.number(node: $0) }) else {
                throw JSONFileRun.Reject("\(metric) has no number", at: doc.path(ofSlot: F.values) + "[\(i)].value")
            }
            guard let imp = field("importance").flatMap({ doc.number(node: $0) }), let importance = Int(exactly: imp) else {
                throw JSONFileRun.Reject("\(metric) has no whole-number importance 1–5", at: doc.path(ofSlot: F.values) + "[\(i)].importance")
            }
            let unit = field("unit").flatMap { doc.string(node: $0) } ?? ""
            switch HealthValueText.value(metric: metric, number: number, unit: unit, importance: importance) {
            case .failure(let p): throw JSONFileRun.Reject(p.message, at: doc.path(ofSlot: F.values) + "[\(i)]")
            case .success(let value): if let p = draft.add(value) { throw JSONFileRun.Reject(p.message, at: doc.path(ofSlot: F.values)) }
            }
        }
        return draft.report()
    }

    private func entry(_ doc: JSONDocument, subject: Symbol, now: Int64) throws -> Result<ManualEntry, EntryProblem> {
        guard let k = doc.string(F.kind), let kind = EntryKind(rawValue: k.lowercased()), kind != .report else {
            throw JSONFileRun.Reject("kind must be insulin, meal, exercise, illness or stress", at: doc.path(ofSlot: F.kind))
        }
        let t = try time(doc, doc.present(F.start) ? F.start : F.time, doc.present(F.start) ? "start" : "time", now: now)
        var d = EntryDraft(kind: kind, id: doc.string(F.id), subject: subject, start: t.utc, utcOffset: t.offset)
        d.timeFlags = t.flags
        if doc.present(F.end) { d.end = try time(doc, F.end, "end", now: now).utc }
        d.openWithoutEnd = doc.bool(F.open) ?? false
        d.units = doc.number(F.units)
        d.basal = doc.bool(F.basal) ?? (doc.string(F.type) == "basal")
        d.carbs = doc.number(F.carbsG) ?? doc.number(F.carbs)
        d.protein = doc.number(F.proteinG) ?? doc.number(F.protein)
        d.fat = doc.number(F.fatG) ?? doc.number(F.fat)
        d.name = doc.string(F.name)
        // An exercise's duration is its span when it has an end.
        d.minutes = doc.number(F.minutes)
        if kind == .exercise, d.minutes != nil { d.end = nil }
        d.intensity = doc.string(F.intensity)
        d.note = doc.string(F.note)
        return d.entry()
    }

    /// A time with an offset, or a naive local time in the stage's zone; not more than a day past
    /// the clock, as a typed one (`PlausibleTime.isTooFarAhead`).
    private func time(_ doc: JSONDocument, _ slot: Int, _ name: String, now: Int64) throws -> ZoneResolver.Resolved {
        let r = try time(doc, slot, name)
        if let why = PlausibleTime.aheadProblem(name, utc: r.utc, offset: r.offset, now: now) {
            throw JSONFileRun.Reject(why, at: doc.path(ofSlot: slot))
        }
        return r
    }

    private func time(_ doc: JSONDocument, _ slot: Int, _ name: String) throws -> ZoneResolver.Resolved {
        guard let text = doc.string(slot) else { throw JSONFileRun.Reject("no \(name)", at: doc.path(ofSlot: slot)) }
        if LocalTimeText.hasOffset(text), let r = LocalTimeText.parse(text, zone: TimeZone(secondsFromGMT: 0)!, now: 0) { return r }
        guard let zone else {
            throw JSONFileRun.Reject("\(name) '\(text)' has no offset: give the source a timezone", at: doc.path(ofSlot: slot))
        }
        guard text.contains("-"), let r = LocalTimeText.parse(text, zone: zone, now: 0) else {
            throw JSONFileRun.Reject("\(name) '\(text)' is not a time such as 2024-03-05T20:00:00+01:00", at: doc.path(ofSlot: slot))
        }
        return r
    }
}

extension Result where Failure == EntryProblem {
    /// The value, or the object rejected with the problem (at its field's path).
    func rejecting(_ doc: JSONDocument) throws -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let p): throw JSONFileRun.Reject(p.message, at: p.field.map { doc.path(of: nil) + "." + $0 })
        }
    }
}

public let healthReportsJSONComponent = ComponentDescriptor(
    name: HealthReportsJSONSource.format, role: .source, family: "JSONFormats",
    summary: """
        Health reports (seed 004) and manual entries from JSON: an array, or one object per line, of reports \
        {id, time, note, values: [{metric, value, unit, importance}]} and entries {id, kind, start, end, units, type, \
        carbs_g, protein_g, fat_g, name, minutes, intensity, note} — what `healthpipe reports list --json` and `healthpipe \
        entries list --json` print. Checked as typed entries are. See docs/reports.md.
        """,
    options: [
        OptionDoc("path", "path", required: true, "the JSON file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone", "zone of times without an offset"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose entries these are (an object's subject wins)"),
    ],
    produces: [.measurements, .events, .reports, .entries],
    detect: { sniff in
        var cut = false
        guard let doc = JSONSniff.firstObject(sniff, table: HealthReportsJSONSource.F.table, cut: &cut) else { return 0 }
        let report = doc.kind(HealthReportsJSONSource.F.values) == .array && doc.present(HealthReportsJSONSource.F.time)
        let entry = doc.string(HealthReportsJSONSource.F.kind).flatMap { EntryKind(rawValue: $0) } != nil
            && doc.present(HealthReportsJSONSource.F.start)
        if report || entry { return 85 }
        // A first report longer than the prefix (a long note before its values): its time and note are
        // seen, its values not yet. Weaker evidence, so a format that sees more wins.
        let cutReport = cut && !doc.present(HealthReportsJSONSource.F.values) && doc.string(HealthReportsJSONSource.F.time) != nil
            && doc.present(HealthReportsJSONSource.F.note)
        return cutReport ? 40 : 0
    },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["\"time\"", "\"values\"", "\"metric\"", "\"importance\"", "\"kind\"", "\"start\""],
    build: { b in
        HealthReportsJSONSource(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                                subject: Symbol(try b.value("subject") ?? b.settings.subject))
    })
