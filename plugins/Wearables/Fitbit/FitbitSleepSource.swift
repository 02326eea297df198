import Foundation
import HealthPipeCore
import JSONFormats

/// `sleep-YYYY-MM-DD.json` of Fitbit's account export: an array of sleep logs (a month per file),
/// `classic` (levels asleep/restless/awake, per minute) or `stages` (wake/light/deep/rem in 30 s
/// steps, with `shortData` short wakes). Stored as Apple Health's sleep analysis is: the log is a
/// `sleep_analysis.in_bed` session (startTime–endTime, value = minutes; logId, type, minutesAsleep,
/// timeInBed in its metadata) and every level a `sleep_analysis.<state>` span inside it (FitbitSleepStages).
/// Times are the wearer's local time without an offset (docs/formats.md): placed with --timezone.
final class FitbitSleepSource: Source, InputDescribing {
    static let format = "fitbit-sleep"
    let options: FitbitOptions
    var inputPaths: [String] { [options.path] }

    init(options: FitbitOptions) { self.options = options }

    enum F {
        static let table = JSONPathTable(["logId", "dateOfSleep", "startTime", "duration", "type", "minutesAsleep",
                                          "levels.data", "levels.shortData", "mainSleep", "endTime", "timeInBed"])
        static let logId = 0, dateOfSleep = 1, startTime = 2, duration = 3, type = 4, minutesAsleep = 5
        static let data = 6, shortData = 7, mainSleep = 8, endTime = 9, timeInBed = 10
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let file = Symbol(options.path), subject = options.subject
        var resolver = ZoneResolver(zone: options.zone ?? TimeZone(secondsFromGMT: 0)!)
        var unknown = (spans: 0, seconds: 0.0)
        // Every document is one sleep log, stored whole (docs/reliability.md, "Every row accounted for").
        try JSONFileRun(path: options.path, format: Self.format, context: context)
            .run(table: F.table, emit: emit, tally: RowTally(types: ["sleep log"]), type: { _, _ in 0 }) { doc, out in
            guard let start = doc.withText(F.startTime, { FitbitDateTime.isoSeconds($0) }) ?? nil else {
                throw JSONFileRun.Reject("startTime is not a local time such as 2018-05-16T02:49:00.000", at: doc.path(ofSlot: F.startTime))
            }
            guard let ms = doc.number(F.duration), ms > 0, ms < 2 * 86_400_000 else {
                throw JSONFileRun.Reject("duration is not a positive number of milliseconds under two days", at: doc.path(ofSlot: F.duration))
            }
            let data = try Self.spans(doc, slot: F.data, unknown: &unknown)
            let short = try Self.spans(doc, slot: F.shortData, unknown: &unknown)
            let prov = Provenance(file: file, line: doc.line)
            // endTime is where the last level ends: 30 s after startTime + duration in stages and most
            // classic logs (duration counts whole epochs, the last one is written after it). The session
            // spans its levels, so it ends at endTime; `duration` is the fallback when endTime is absent.
            let written: Int64? = doc.withText(F.endTime) { FitbitDateTime.isoSeconds($0) } ?? nil
            if doc.present(F.endTime), written == nil {
                throw JSONFileRun.Reject("endTime is not a local time such as 2018-05-16T09:40:30.000", at: doc.path(ofSlot: F.endTime))
            }
            let end = written ?? start + Int64((ms / 1000).rounded())
            guard end > start else { throw JSONFileRun.Reject("endTime is not after startTime", at: doc.path(ofSlot: F.endTime)) }
            // One offset per log, its start's: Fitbit counts the levels on from startTime in that offset.
            // On a night the clock springs forward its levels run on an hour past the wake-up (filled with
            // `unknown`) to reach endTime's wall clock (a real export: docs/formats.md), so reading each
            // time in its own offset would put levels in an hour that does not exist.
            let base = try resolver.resolve(local: start)
            let offset = Int64(base.offset)
            out.add(Measurement(subject: subject, metric: FitbitSleepStages.inBed, source: FitbitNames.source,
                                start: start - offset, end: end - offset, utcOffset: base.offset, value: Double(end - start) / 60,
                                unit: CanonicalUnits.minutes, flags: base.flags, provenance: prov,
                                metadata: Self.metadata(doc)))
            for span in FitbitSleepStages.flatten(data: data, short: short) {
                out.add(Measurement(subject: subject, metric: span.metric, source: FitbitNames.source,
                                    start: span.start - offset, end: span.end - offset, utcOffset: base.offset,
                                    value: Double(span.end - span.start) / 60, unit: CanonicalUnits.minutes,
                                    flags: base.flags, provenance: prov))
            }
            return .stored
        }
        if unknown.spans > 0 {
            context.warn("\(options.path): not imported: \(unknown.spans) sleep level span(s) 'unknown' (\(Plausibility.number(unknown.seconds / 60)) min), "
                         + "what Fitbit writes where it has no stage, e.g. the hour a clock change removes")
        }
    }

    /// The `levels.data` or `levels.shortData` entries ({dateTime, level, seconds}) as local spans;
    /// `unknown` levels are counted, not stored.
    static func spans(_ doc: JSONDocument, slot: Int, unknown: inout (spans: Int, seconds: Double)) throws -> [FitbitSleepStages.Span] {
        guard let list = doc.node(slot) else { return [] }
        var out: [FitbitSleepStages.Span] = []
        for entry in doc.children(of: list) {
            let t = doc.child(of: entry, named: "dateTime"), l = doc.child(of: entry, named: "level")
            let s = doc.child(of: entry, named: "seconds")
            guard let t, doc.kind(node: t) == .string, let at = FitbitDateTime.isoSeconds(doc.valueBytes(t)) else {
                throw JSONFileRun.Reject("a sleep level without a dateTime such as 2018-05-16T02:49:00.000", at: doc.path(of: entry))
            }
            guard let l, doc.kind(node: l) == .string, let metric = FitbitSleepStages.metric(doc.valueBytes(l)) else {
                throw JSONFileRun.Reject("a sleep level that is not wake, light, deep, rem, asleep, restless, awake or unknown", at: doc.path(of: entry))
            }
            guard let s, let seconds = doc.number(node: s), seconds > 0, seconds < 86_400, seconds == seconds.rounded() else {
                throw JSONFileRun.Reject("a sleep level without a whole positive number of seconds", at: doc.path(of: entry))
            }
            if metric == FitbitSleepStages.unknown {
                unknown.spans += 1
                unknown.seconds += seconds
                continue
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
        if let inBed = doc.number(F.timeInBed) { json.field("timeInBed", inBed) }
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
