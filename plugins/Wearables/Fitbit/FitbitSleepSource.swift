import Foundation
import HealthPipeCore
import JSONFormats

/// `sleep-YYYY-MM-DD.json` of Fitbit's account export: an array of sleep logs (a month per file),
/// `classic` (levels asleep/restless/awake, per minute) or `stages` (wake/light/deep/rem in 30 s
/// steps, with `shortData` short wakes). Stored as Apple Health's sleep analysis is: the log is a
/// `sleep_analysis.in_bed` session (startTime + duration, value = minutes; logId, type, minutesAsleep
/// in its metadata) and every level a `sleep_analysis.<state>` span inside it (FitbitSleepStages).
/// Times are the wearer's local time without an offset (docs/formats.md): placed with --timezone.
final class FitbitSleepSource: Source, InputDescribing {
    static let format = "fitbit-sleep"
    let options: FitbitOptions
    var inputPaths: [String] { [options.path] }

    init(options: FitbitOptions) { self.options = options }

    enum F {
        static let table = JSONPathTable(["logId", "dateOfSleep", "startTime", "duration", "type", "minutesAsleep",
                                          "levels.data", "levels.shortData", "mainSleep"])
        static let logId = 0, dateOfSleep = 1, startTime = 2, duration = 3, type = 4, minutesAsleep = 5
        static let data = 6, shortData = 7, mainSleep = 8
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let file = Symbol(options.path), subject = options.subject
        var resolver = ZoneResolver(zone: options.zone ?? TimeZone(secondsFromGMT: 0)!)
        try JSONFileRun(path: options.path, format: Self.format, context: context).run(table: F.table, emit: emit) { doc, out in
            guard let start = doc.withText(F.startTime, { FitbitDateTime.isoSeconds($0) }) ?? nil else {
                throw JSONFileRun.Reject("startTime is not a local time such as 2018-05-16T02:49:00.000", at: doc.path(ofSlot: F.startTime))
            }
            guard let ms = doc.number(F.duration), ms > 0, ms < 2 * 86_400_000 else {
                throw JSONFileRun.Reject("duration is not a positive number of milliseconds under two days", at: doc.path(ofSlot: F.duration))
            }
            let data = try Self.spans(doc, slot: F.data), short = try Self.spans(doc, slot: F.shortData)
            let prov = Provenance(file: file, line: doc.line)
            let end = start + Int64((ms / 1000).rounded())
            let from = try resolver.resolve(local: start), to = try resolver.resolve(local: end)
            out.add(Measurement(subject: subject, metric: FitbitSleepStages.inBed, source: FitbitNames.source,
                                start: from.utc, end: to.utc, utcOffset: from.offset, value: ms / 60_000,
                                unit: CanonicalUnits.minutes, flags: from.flags, provenance: prov,
                                metadata: Self.metadata(doc)))
            for span in FitbitSleepStages.flatten(data: data, short: short) {
                let a = try resolver.resolve(local: span.start), b = try resolver.resolve(local: span.end)
                out.add(Measurement(subject: subject, metric: span.metric, source: FitbitNames.source,
                                    start: a.utc, end: b.utc, utcOffset: a.offset, value: Double(span.end - span.start) / 60,
                                    unit: CanonicalUnits.minutes, flags: a.flags, provenance: prov))
            }
        }
    }

    /// The `levels.data` or `levels.shortData` entries ({dateTime, level, seconds}) as local spans.
    static func spans(_ doc: JSONDocument, slot: Int) throws -> [FitbitSleepStages.Span] {
        guard let list = doc.node(slot) else { return [] }
        var out: [FitbitSleepStages.Span] = []
        for entry in doc.children(of: list) {
            let t = doc.child(of: entry, named: "dateTime"), l = doc.child(of: entry, named: "level")
            let s = doc.child(of: entry, named: "seconds")
            guard let t, doc.kind(node: t) == .string, let at = FitbitDateTime.isoSeconds(doc.valueBytes(t)) else {
                throw JSONFileRun.Reject("a sleep level without a dateTime such as 2018-05-16T02:49:00.000", at: doc.path(of: entry))
            }
            guard let l, doc.kind(node: l) == .string, let metric = FitbitSleepStages.metric(doc.valueBytes(l)) else {
                throw JSONFileRun.Reject("a sleep level that is not wake, light, deep, rem, asleep, restless or awake", at: doc.path(of: entry))
            }
            guard let s, let seconds = doc.number(node: s), seconds > 0, seconds < 86_400, seconds == seconds.rounded() else {
                throw JSONFileRun.Reject("a sleep level without a whole positive number of seconds", at: doc.path(of: entry))
            }
            out.append(.init(start: at, end: at + Int64(seconds), metric: metric))
        }
        return out
    }

    /// The log's own facts the rows do not carry: `{"logId":…,"type":"stages","dateOfSleep":"…","minutesAsleep":…,"mainSleep":true}`.
    static func metadata(_ doc: JSONDocument) -> String {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        if let id = doc.string(F.logId) { json.key("logId"); doc.kind(F.logId) == .number ? json.json(id) : json.string(id) }
        if let type = doc.string(F.type) { json.field("type", type) }
        if let day = doc.string(F.dateOfSleep) { json.field("dateOfSleep", day) }
        if let asleep = doc.number(F.minutesAsleep) { json.field("minutesAsleep", asleep) }
        if let main = doc.bool(F.mainSleep) { json.field("mainSleep", main) }
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// A sleep log's first fields: a local `startTime`, `dateOfSleep`, `logId`.
    static func isSleepLog(_ sniff: FileSniff) -> Bool {
        guard let doc = JSONSniff.firstObject(sniff, table: F.table), doc.has(F.logId), doc.has(F.dateOfSleep) else { return false }
        return (doc.withText(F.startTime) { FitbitDateTime.isoSeconds($0) } ?? nil) != nil
    }
}

public let fitbitSleepComponent = ComponentDescriptor(
    name: FitbitSleepSource.format, role: .source, family: "Wearables",
    summary: """
        Fitbit account export sleep logs (`sleep-YYYY-MM-DD.json`: classic and stages logs with levels.data and \
        shortData), stored as Apple Health's sleep analysis: a sleep_analysis.in_bed session per log and \
        sleep_analysis.<state> spans (awake, asleep_core, asleep_deep, asleep_rem, asleep_unspecified, restless) \
        in minutes; local times placed with --timezone. See docs/formats.md.
        """,
    options: FitbitOptions.docs,
    produces: [.measurements],
    detect: { FitbitSleepSource.isSleepLog($0) ? 88 : 0 },
    signature: ["\"logid\"", "\"dateofsleep\"", "\"minutesasleep\"", "\"levels\""],
    build: { b in FitbitSleepSource(options: try FitbitOptions.read(b)) })
