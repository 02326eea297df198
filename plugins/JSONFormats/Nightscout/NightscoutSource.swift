import Foundation
import HealthPipeCore

/// Nightscout JSON: API dumps (`/api/v1/entries.json`, `treatments.json`, `devicestatus.json`,
/// `profile.json`: arrays) and `mongoexport` files (one extended-JSON document per line), streamed
/// document by document. Each document is recognised by its keys, so one file may mix kinds.
final class NightscoutSource: Source, InputDescribing {
    static let format = "nightscout"

    let options: NightscoutOptions
    var inputPaths: [String] { [options.path] }

    init(options: NightscoutOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let mapper = NightscoutMapper(options: options)
        let run = JSONFileRun(path: options.path, format: Self.format, context: context)
        // Every document is counted under its type (`NightscoutDocumentTypes`): a treatment and a
        // profile are stored whole (a profile's basal schedule places percent temp basals; the newest is the subject's).
        var kind = NightscoutFields.Kind.unknown  // of the document being read, told once
        try run.run(table: NightscoutFields.table, emit: emit, finish: { try mapper.finishPercents(&$0) },
                    tally: RowTally(types: NightscoutDocumentTypes.fixed), type: { doc, tally in
            kind = NightscoutFields.kind(of: doc)
            return NightscoutDocumentTypes.slot(doc, kind, &tally)
        }) { doc, out in
            switch kind {
            case .entry: return try mapper.entry(doc, &out)
            case .treatment: try mapper.treatment(doc, &out)
            case .deviceStatus: return try mapper.deviceStatus(doc, &out)
            case .profile: try mapper.profile(doc)
            case .unknown:
                throw JSONFileRun.Reject("not a Nightscout entry (sgv/mbg), treatment (eventType), device status or profile (store)")
            }
            return .stored
        }
        var tail = RecordBatch()
        if let p = mapper.newestProfile { tail.profiles.append(p) }
        if !tail.isEmpty { try emit(tail) }
        for w in mapper.warnings(path: options.path) { context.warn(w) }
    }
}

/// Turns Nightscout documents into records; state shared by the document kinds (caches, counters).
final class NightscoutMapper {
    let options: NightscoutOptions
    let file: Symbol
    var zone: ZoneOffsets?

    // Counters for the run report's warnings.
    var utcOnly = 0, located = 0, nearDuplicates = 0, calibrations = 0

    // Caches: a device or uploader name repeats on every document.
    var cgmDevices = BytesCache<(source: Symbol, device: Symbol)>()
    var uploaders = BytesCache<Symbol>()
    var directions = BytesCache<String>()
    var recent = RecentReadings()
    var newestProfile: SubjectProfile?
    var newestProfileTime: Int64 = .min
    var basalSchedules = BasalSchedules()
    var pendingPercents: [PendingPercent] = []

    let nightscout = Symbol("Nightscout")
    let bloodGlucose = Symbol("blood_glucose")

    init(options: NightscoutOptions) {
        self.options = options
        file = Symbol(options.path)
        zone = options.zone.map { ZoneOffsets(zone: $0) }
    }

    /// A time field as uploaders write it: epoch milliseconds or seconds (number, digits or exponent
    /// text, extended JSON `$date`/`$numberLong`/`$numberDouble` folded by the parser) or ISO 8601.
    /// UTC seconds, and the offset the text carried when it had one. An ISO time without an offset
    /// is wall-clock time in the run's zone (UTC without one).
    /// Nil too when the date lies outside the readings' window (`NumberRule.readingEpochSeconds`):
    /// `"date": 0` is a missing date, 8.64e15 ms a JavaScript limit; the document is then rejected
    /// whole, with its own raw text, rather than stored on 1 January 1970.
    func time(_ doc: JSONDocument, _ slot: Int) -> (utc: Int64, offset: Int32?)? {
        guard let b = doc.bytes(slot), let kind = doc.kind(slot) else { return nil }
        let t = kind == .number ? JSONScalars.epochMilliseconds(b).map { (utc: CivilDate.floorDiv($0, 1000), offset: Int32?.none) }
            : (doc.withText(slot) { textTime($0) } ?? nil)
        guard let t, NumberRule.readingEpochSeconds.allows(Double(t.utc)) else { return nil }
        return t
    }

    /// `time` of a date text (digits, a Java date, ISO 8601).
    private func textTime(_ b: UnsafeRawBufferPointer) -> (utc: Int64, offset: Int32?)? {
        guard b.count > 0 else { return nil }
        if b.count < 19 || b[4] != UInt8(ascii: "-") {
            if let ms = JSONScalars.epochMilliseconds(b) { return (CivilDate.floorDiv(ms, 1000), nil) }
            guard let j = JSONScalars.javaDate(b), let offset = j.offset else { return nil }
            return (CivilDate.floorDiv(j.wallMilliseconds, 1000) - Int64(offset), offset)
        }
        guard let t = JSONScalars.isoTime(b) else { return nil }
        let seconds = CivilDate.floorDiv(t.milliseconds, 1000)
        if let offset = t.offset { return (seconds, offset) }
        guard zone != nil else { return (seconds, nil) }
        // Wall clock → UTC: the zone's offset near that instant, checked once more across a DST change.
        var utc = seconds - Int64(zone!.offset(atUTC: seconds))
        utc = seconds - Int64(zone!.offset(atUTC: utc))
        return (utc, nil)
    }

    /// The offset a date text shows for the instant `utc`: written (`+02:00`, `GMT+02:00`), or the
    /// difference between its wall clock and `utc` when it names the zone only (`CEST`), whole
    /// quarter hours within ±16 h; nil when it shows none.
    func writtenOffset(_ doc: JSONDocument, _ slot: Int, utc: Int64) -> Int32? {
        doc.withText(slot) { writtenOffset(text: $0, utc: utc) } ?? nil
    }

    private func writtenOffset(text b: UnsafeRawBufferPointer, utc: Int64) -> Int32? {
        guard b.count >= 19 else { return nil }
        if b[4] == UInt8(ascii: "-") { return JSONScalars.isoTime(b)?.offset }
        guard let j = JSONScalars.javaDate(b) else { return nil }
        if let o = j.offset { return o }
        let difference = CivilDate.floorDiv(j.wallMilliseconds, 1000) - utc
        guard abs(difference) <= 16 * 3600, difference % 900 == 0 else { return nil }
        return Int32(difference)
    }

    /// The local offset. The document's own wins: its `utcOffset` (minutes), else the offset written
    /// in its date text; then the stage's or run's zone (`--timezone` is for times without an
    /// offset); else UTC (counted for the warning). An offset of 0 says nothing (many uploaders
    /// write `utcOffset: 0` and `…Z` whatever their zone), so it falls through to the zone.
    func offset(_ doc: JSONDocument, utc: Int64, written: Int32?) -> Int32 {
        if let m = doc.number(NightscoutFields.utcOffset), m != 0, abs(m) <= 16 * 60 {
            located += 1
            return Int32(m * 60)
        }
        if let w = written, w != 0 {
            located += 1
            return w
        }
        if zone != nil { return zone!.offset(atUTC: utc) }
        utcOnly += 1
        return 0
    }

    func warnings(path: String) -> [String] {
        var out: [String] = []
        if zone == nil, utcOnly > 0, located == 0 {
            out.append("\(path): no document carries a local UTC offset (utcOffset is 0 or missing): local days are UTC days; "
                       + "pass --timezone (or the stage's timezone) to count days in the person's zone")
        }
        if nearDuplicates > 0 {
            out.append("\(path): \(nearDuplicates) readings repeated within 30 s by a second uploader were skipped")
        }
        if calibrations > 0 {
            out.append("\(path): \(calibrations) 'cal' entries (sensor calibration factors, not readings) were not imported")
        }
        return out
    }

    func provenance(_ doc: JSONDocument) -> Provenance { Provenance(file: file, line: doc.line) }
}

/// The last few readings per source, to fold a reading a second uploader repeated a few seconds
/// apart (Nightscout's best-known duplicate: `Dexcom G6 SERIAL` and `com.dexcom.G6` ~1 s apart)
/// into one. CGM readings are at least a minute apart, so two within 30 s are one reading; the
/// earliest time wins (a repeat is an upload delay), whichever order the file lists them in, so the
/// reading meets the same reading from Clarity or Tidepool.
struct RecentReadings {
    static let window: Int64 = 30

    enum Verdict {
        case new
        /// A repeat of a reading already kept with an earlier or equal time: drop it.
        case repeatLater
        /// A repeat earlier than the kept reading at `position`: it replaces that one.
        case repeatEarlier(position: (generation: Int, index: Int))
    }

    private struct Kept {
        var start: Int64
        var position: (generation: Int, index: Int)
    }
    private var keys: [(source: Symbol, metric: Symbol)] = []
    private var kept: [[Kept]] = []

    mutating func check(source: Symbol, metric: Symbol, start: Int64, position: (generation: Int, index: Int)) -> Verdict {
        guard let i = keys.firstIndex(where: { $0.source == source && $0.metric == metric }) else {
            keys.append((source, metric))
            kept.append([Kept(start: start, position: position)])
            return .new
        }
        for (j, k) in kept[i].enumerated() where k.start != start && abs(k.start - start) < Self.window {
            if start > k.start { return .repeatLater }
            kept[i][j].start = start
            return .repeatEarlier(position: k.position)
        }
        if kept[i].count >= 8 { kept[i].removeFirst() }
        kept[i].append(Kept(start: start, position: position))
        return .new
    }
}
