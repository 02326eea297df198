import CLibXML2
import Foundation
import HealthPipeCore

/// Turns the SAX element stream of a HealthData document into records. Top-level elements
/// (depth 2) start a draft; their children (depth 3: MetadataEntry, a correlation's Records, a
/// workout's statistics and events) add to it; the end tag emits. Nested correlation Records
/// duplicate top-level ones (Apple's DTD says so), so they only feed their correlation.
/// Records collect in batches in `ready`; bad elements in `rejects`; the source drains both after
/// every chunk, so nothing here throws through libxml2.
final class ExportHandler: SAXElementHandler {
    let options: AppleHealthOptions
    let path: String
    let file: Symbol
    /// The parser's current line and consumed bytes as offsets into the whole input (set by `RecoveringParser`).
    var currentLine: () -> Int = { 0 }
    var consumed: () -> Int64 = { 0 }
    /// Stops the parser from inside a callback.
    var stopParser: () -> Void = {}

    /// Where the last complete top-level element (or the root's start tag) ended, and its line:
    /// everything before it is imported; a malformed element is looked for from here.
    @exclusivity(unchecked) var lastGoodEnd: Int64 = 0
    @exclusivity(unchecked) var lastGoodLine: Int64 = 1
    @exclusivity(unchecked) var rootStarted = false
    @exclusivity(unchecked) var documentEnded = false
    /// Why the handler stopped the parser (an element nested too deep), for the quarantine.
    @exclusivity(unchecked) var stopReason: String?
    /// Health exports nest 4 levels (HealthData/Workout/WorkoutRoute/FileReference); deeper is hostile.
    static let maxDepth = 32

    // The SAX state below is touched only by the parser thread, one callback at a time and never
    // through overlapping accesses; the runtime's per-access exclusivity checks cost ~8 % of that
    // thread, so they are turned off for these properties.
    @exclusivity(unchecked) var ready: [RecordBatch] = []
    @exclusivity(unchecked) var rejects: [RowError] = []
    @exclusivity(unchecked) private var batch = RecordBatch()
    static let batchSize = 256

    @exclusivity(unchecked) var measurements: Int64 = 0
    @exclusivity(unchecked) var events: Int64 = 0
    /// Top-level elements read (records, correlations, workouts, summaries…).
    @exclusivity(unchecked) var elementsRead: Int64 = 0
    /// Elements left out by the type, source or date options.
    @exclusivity(unchecked) var filtered: Int64 = 0
    /// Records nested in correlations (never stored on their own: they repeat top-level records).
    @exclusivity(unchecked) var correlationMembers: Int64 = 0
    /// Top-level elements HealthPipe does not import (ClinicalRecord, Audiogram…), by name.
    @exclusivity(unchecked) var skipped: [String: Int] = [:]

    private enum Top { case none, record, correlation, workout, skip }
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var top = Top.none
    @exclusivity(unchecked) var draft = ElementDraft()
    @exclusivity(unchecked) var correlation = CorrelationDraft()
    @exclusivity(unchecked) var workout = WorkoutDraft()
    @exclusivity(unchecked) var ledger = MealLedger()
    /// Beat-to-beat lists, inline route points and the workouts that route files belong to.
    @exclusivity(unchecked) var side = SideData()

    @exclusivity(unchecked) var types = ByteCache<HealthType>(capacity: 32)
    @exclusivity(unchecked) private var sources = ByteCache<SourceInfo>(capacity: 16)
    @exclusivity(unchecked) private var texts = ByteCache<String>(capacity: 32)
    @exclusivity(unchecked) private var metadataKeys = ByteCache<String>(capacity: 32)
    @exclusivity(unchecked) private var devices = ByteCache<DeviceInfo>(capacity: 16)
    @exclusivity(unchecked) private var zones: [String: TimeZone?] = [:]
    @exclusivity(unchecked) private var topNames = InternedNames(TopElement.of)
    @exclusivity(unchecked) private var sampleNames = InternedNames(SampleAttribute.of)
    @exclusivity(unchecked) var json = JSONWriter(capacity: 512)
    @exclusivity(unchecked) private var metadataCache = MetadataCache()
    let workoutsIncluded: Bool
    let summariesIncluded: Bool

    init(options: AppleHealthOptions) {
        self.options = options
        path = options.path
        file = Symbol(options.path)
        workoutsIncluded = options.types.includes(identifier: "HKWorkoutTypeIdentifier", name: "workout")
        summariesIncluded = options.types.includes(identifier: "HKActivitySummaryTypeIdentifier", name: "activity_summary")
        batch.reserve(Self.batchSize)
    }

    // MARK: SAX

    func startElement(_ name: UnsafePointer<UInt8>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) {
        depth += 1
        if depth > Self.maxDepth {
            // libxml2's push parser keeps a stack entry per open element: millions of nested
            // elements (a tiny zip can hold them) would take gigabytes. The element is quarantined.
            if stopReason == nil { stopReason = "elements nested deeper than \(Self.maxDepth) levels" }
            stopParser()
            return
        }
        let a = Attributes(base: attributes, count: count)
        switch depth {
        case 1:
            // Inside the root's start tag: the search for a bad element may begin here (its `>` is text to it).
            rootStarted = true
            lastGoodEnd = max(lastGoodEnd, consumed())
            lastGoodLine = Int64(currentLine())
        case 2:
            elementsRead += 1
            switch topNames.code(name) {
            case .record:
                top = .record
                beginRecord(a)
            case .correlation:
                top = .correlation
                beginRecord(a)
                correlation.reset()
            case .workout:
                top = .workout
                beginWorkout(a)
            case .activitySummary:
                top = .none
                activitySummary(a)
            case .me:
                top = .none
                me(a)
            case .exportDate:
                top = .none
            case .other:
                top = .skip
                skipped[String(cString: name), default: 0] += 1
            }
        case 3:
            switch top {
            case .record, .correlation, .workout:
                if named(name, "MetadataEntry") { metadataEntry(a) }
                else if top == .correlation, named(name, "Record") { correlationMember(a) }
                else if top == .workout { workoutChild(name, a) }
            case .none, .skip: break
            }
        case 4:
            if top == .workout, named(name, "FileReference") {
                for i in 0..<a.count where named(a.name(i), "path") { workout.routes.append(a.string(i)) }
            } else if top == .workout, named(name, "Location") {
                routeLocation(a)
            } else if top == .record, named(name, "InstantaneousBeatsPerMinute") {
                heartbeat(a)
            }
        default: break
        }
    }

    func endElement(_ name: UnsafePointer<UInt8>) {
        if depth == 2 {
            switch top {
            case .record: finishRecord()
            case .correlation: finishCorrelation()
            case .workout: finishWorkout()
            case .none, .skip: break
            }
            top = .none
            lastGoodEnd = consumed()
            lastGoodLine = Int64(currentLine())
        } else if depth == 1 {
            documentEnded = true
        }
        depth -= 1
    }

    /// A new parser takes over after a malformed element: it starts outside any element.
    func restart() {
        depth = 0
        top = .none
        stopReason = nil
    }

    // MARK: Shared attribute handling

    /// Reads the attributes every sample element has: type, sourceName, unit, value, dates, device.
    func beginRecord(_ a: Attributes) {
        draft.reset(line: Int64(currentLine()))
        var unitIndex = -1, valueIndex = -1
        for i in 0..<a.count {
            switch sampleNames.code(a.name(i)) {
            case .type:
                draft.type = types.value(a.value(i), a.length(i)) { HealthType(identifier: $0, filter: options.types) }
            case .sourceName:
                source(a, i)
            case .startDate:
                draft.start = a.date(i)
                if draft.start == nil { draft.badDate = true }
            case .endDate:
                draft.end = a.date(i)
                if draft.end == nil { draft.badDate = true }
            case .unit:
                unitIndex = i
            case .value:
                valueIndex = i
            case .device:
                device(a, i)
            case .other:
                break
            }
        }
        if unitIndex >= 0, let t = draft.type {
            draft.unit = t.units.value(a.value(unitIndex), a.length(unitIndex)) { UnitConversion(appleUnit: $0, metric: t.name) }
        }
        if valueIndex >= 0 {
            if draft.type?.kind != .category { draft.number = a.number(valueIndex) }
            if draft.number == nil { draft.text = texts.value(a.value(valueIndex), a.length(valueIndex)) { $0 } }
        }
    }

    func source(_ a: Attributes, _ i: Int) {
        let info = sources.value(a.value(i), a.length(i)) { name in
            SourceInfo(symbol: Symbol(name), name: name, included: options.sources.isEmpty || options.sources.contains(name))
        }
        draft.source = info.symbol
        draft.sourceName = info.name
        draft.sourceIncluded = info.included
    }

    /// The device description repeats per device except for its heap address, so the cache key
    /// starts after the address's `>`.
    func device(_ a: Attributes, _ i: Int) {
        let p = a.value(i), n = a.length(i)
        var k = 0
        if n > 2, p[0] == UInt8(ascii: "<") {
            while k < n, p[k] != UInt8(ascii: ">") { k += 1 }
            if k < n { k += 1 } else { k = 0 }
        }
        draft.device = devices.value(p + k, n - k) { DeviceInfo(description: $0) }
    }

    /// A MetadataEntry: kept for the JSON; the well-known keys also set fields.
    func metadataEntry(_ a: Attributes) {
        var keyIndex = -1, valueIndex = -1
        for i in 0..<a.count {
            if named(a.name(i), "key") { keyIndex = i } else if named(a.name(i), "value") { valueIndex = i }
        }
        guard keyIndex >= 0 else { return }
        let key = metadataKeys.value(a.value(keyIndex), a.length(keyIndex)) { $0 }
        let value = valueIndex >= 0 ? a.string(valueIndex) : ""
        draft.metadata.append(MetadataPair(key: key, value: value))
        switch key {
        case "HKTimeZone": draft.timeZone = value
        case "HKInsulinDeliveryReason": draft.insulinReason = Int(value) ?? 0
        case "HKWasUserEntered": draft.userEntered = value == "1"
        case "HKBloodGlucoseMealTime":
            draft.metadata.append(MetadataPair(key: "meal_time", value: value == "1" ? "preprandial" : value == "2" ? "postprandial" : value))
        case "HKMetadataKeyHeartRateMotionContext":
            let context = value == "0" ? "unset" : value == "1" ? "sedentary" : value == "2" ? "active" : value
            draft.metadata.append(MetadataPair(key: "motion_context", value: context))
        default: break
        }
    }

    // MARK: Helpers for the emitters

    /// The UTC offset for local days: the record's HKTimeZone at that instant, else the stage's
    /// zone, else the offset written in the date (the phone's zone at export time).
    func offset(at start: HealthDate.Parsed) -> Int32 {
        if let name = draft.timeZone, let zone = zone(named: name) { return Self.offset(zone, start.utc) }
        if let zone = options.zone { return Self.offset(zone, start.utc) }
        return start.offset
    }

    private static func offset(_ zone: TimeZone, _ utc: Int64) -> Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc))))
    }

    private func zone(named name: String) -> TimeZone? {
        if let z = zones[name] { return z }
        let z = TimeZone(identifier: name)
        zones[name] = z
        return z
    }

    func dayIncluded(_ localSeconds: Int64) -> Bool {
        guard options.fromDay != nil || options.toDay != nil else { return true }
        let day = CivilDate.floorDiv(localSeconds, 86_400)
        if let f = options.fromDay, day < f { return false }
        if let t = options.toDay, day > t { return false }
        return true
    }

    /// The draft's MetadataEntry pairs as a JSON object text; nil when it has none. Records of one
    /// device usually carry the same entries (a heart rate's motion context), so the text is looked
    /// up in a small cache first: one shared String, no JSON work per record.
    func metadataJSON(extra: ((inout JSONWriter) -> Void)? = nil) -> String? {
        guard !draft.metadata.isEmpty || extra != nil else { return nil }
        if extra == nil, let hit = metadataCache.lookup(pairs: draft.metadata) { return hit }
        json.reset()
        json.beginObject()
        extra?(&json)
        for p in draft.metadata {
            json.key(p.key)
            json.string(p.value)
        }
        json.endObject()
        let text = String(decoding: json.bytes, as: UTF8.self)
        if extra == nil { metadataCache.store(pairs: draft.metadata, json: text) }
        return text
    }

    /// The draft's device symbol (`.empty` when the element has no `device`).
    var deviceSymbol: Symbol { draft.device?.symbol ?? .empty }

    /// A rejected element, with what was read of it (type, source, value, unit, dates) as its raw text.
    func reject(_ reason: String, line: Int64? = nil) {
        var raw = "<\(draft.type?.identifier ?? "?") sourceName=\"\(draft.sourceName)\""
        if let u = draft.unit { raw += " unit=\"\(u.appleUnit)\"" }
        if let n = draft.number { raw += " value=\"\(Plausibility.number(n))\"" } else if let t = draft.text { raw += " value=\"\(t)\"" }
        for (name, date) in [("startDate", draft.start), ("endDate", draft.end)] {
            if let d = date {
                let local = CivilDate.isoDateTime(seconds: d.utc + Int64(d.offset)).replacingOccurrences(of: "T", with: " ")
                raw += " \(name)=\"\(local) \(Self.offsetText(d.offset))\""
            }
        }
        rejects.append(RowError(file: path, line: line ?? draft.line, reason: reason, raw: raw + ">"))
    }

    private static func offsetText(_ seconds: Int32) -> String {
        let m = abs(Int(seconds)) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d%02d", m / 60, m % 60)
    }

    func add(_ m: HealthPipeCore.Measurement) {
        batch.measurements.append(m)
        measurements += 1
        if batch.count >= Self.batchSize { flushBatch() }
    }

    func add(_ e: Event) {
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

/// A source name with its symbol and whether the stage's `sources` option lets it in.
final class SourceInfo {
    let symbol: Symbol
    let name: String
    let included: Bool
    init(symbol: Symbol, name: String, included: Bool) {
        self.symbol = symbol
        self.name = name
        self.included = included
    }
}
