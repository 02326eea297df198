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
    @exclusivity(unchecked) var position = InputPosition()
    func currentLine() -> Int { position.line }
    func consumed() -> Int64 { position.consumed }
    /// Stops the parser from inside a callback.
    var stopParser: () -> Void = {}
    /// The raw bytes of the top-level element being read (set by `RecoveringParser`), for the quarantine.
    var elementBytes: () -> [UInt8] = { [] }

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
    @exclusivity(unchecked) var batch = RecordBatch()
    static let batchSize = 256

    @exclusivity(unchecked) var measurements: Int64 = 0
    @exclusivity(unchecked) var events: Int64 = 0
    /// Top-level elements read (records, correlations, workouts, summaries…).
    @exclusivity(unchecked) var elementsRead: Int64 = 0
    /// Elements left out by the type, source or date options.
    @exclusivity(unchecked) var filtered: Int64 = 0
    /// Records nested in correlations (never stored on their own: they repeat top-level records).
    @exclusivity(unchecked) var correlationMembers: Int64 = 0
    /// Every top-level element by type: stored, skipped or quarantined (`ElementTypes`).
    @exclusivity(unchecked) var tally = RowTally(types: ElementTypes.fixed)
    /// The tally slot of the top-level element being read.
    @exclusivity(unchecked) var elementSlot = 0

    private enum Top { case none, record, correlation, workout, skip, unknown }
    @exclusivity(unchecked) private var depth = 0
    /// Inside the root with no child open: where a top-level element may be read without libxml2.
    var betweenTopElements: Bool { depth == 1 && !documentEnded && stopReason == nil }
    @exclusivity(unchecked) private var top = Top.none
    @exclusivity(unchecked) var draft = ElementDraft()
    @exclusivity(unchecked) var correlation = CorrelationDraft()
    @exclusivity(unchecked) var workout = WorkoutDraft()
    @exclusivity(unchecked) var ledger = MealLedger()
    /// Beat-to-beat lists, inline route points and the workouts that route files belong to.
    @exclusivity(unchecked) var side = SideData()

    @exclusivity(unchecked) var types = ByteCache<HealthType>(capacity: 32)
    @exclusivity(unchecked) var sources = ByteCache<SourceInfo>(capacity: 16)
    @exclusivity(unchecked) var texts = ByteCache<String>(capacity: 32)
    @exclusivity(unchecked) var metadataKeys = ByteCache<MetadataKey>(capacity: 32)
    @exclusivity(unchecked) var devices = ByteCache<DeviceInfo>(capacity: 16)
    @exclusivity(unchecked) var zones: [String: TimeZone?] = [:]
    @exclusivity(unchecked) var dayMemo = HealthDate.DayMemo()
    @exclusivity(unchecked) var topNames = InternedNames(TopElement.of)
    @exclusivity(unchecked) var sampleNames = InternedNames(SampleAttribute.of)
    @exclusivity(unchecked) var json = JSONWriter(capacity: 512)
    @exclusivity(unchecked) var metadataCache = MetadataCache()
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
                elementSlot = typeSlot()
            case .correlation:
                top = .correlation
                beginRecord(a)
                elementSlot = typeSlot()
                correlation.reset()
            case .workout:
                top = .workout
                elementSlot = ElementTypes.workout
                beginWorkout(a)
            case .activitySummary:
                top = .none
                elementSlot = ElementTypes.activitySummary
                if let outcome = activitySummary(a) { tally.count(elementSlot, outcome) }
            case .me:
                top = .none
                me(a)
                tally.count(ElementTypes.me, .stored)
            case .exportDate:
                // The export's own date: not a sample.
                top = .none
                tally.count(ElementTypes.exportDate, .skipped)
            case .other:
                draft.reset(line: Int64(currentLine()))
                let text = UnsafeRawBufferPointer(start: name, count: strlen(name))
                if named(name, "HealthData") {
                    // A root inside the root holds nothing of its own; its children are not read.
                    top = .skip
                    elementSlot = -1
                } else {
                    let known = ElementTypes.notModelled.contains(String(decoding: text, as: UTF8.self))
                    top = known ? .skip : .unknown
                    elementSlot = tally.slot(named: text, known: known)
                }
            }
        case 3:
            switch top {
            case .record, .correlation, .workout:
                if named(name, "MetadataEntry") { metadataEntry(a) }
                else if top == .correlation, named(name, "Record") { correlationMember(a) }
                else if top == .workout { workoutChild(name, a) }
            case .none, .skip, .unknown: break
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
            case .record: if let outcome = finishRecord() { tally.count(elementSlot, outcome) }
            case .correlation: if let outcome = finishCorrelation() { tally.count(elementSlot, outcome) }
            case .workout: if let outcome = finishWorkout() { tally.count(elementSlot, outcome) }
            case .skip: if elementSlot >= 0 { tally.count(elementSlot, .skipped) }
            case .unknown:
                quarantine(RowError(file: path, line: draft.line, reason: "<\(String(cString: name))> is not an element of Apple's "
                                        + "export format (Record, Correlation, Workout, ActivitySummary, Me, ClinicalRecord…)",
                                    raw: wholeElement() ?? "<\(String(cString: name))>", rawLimit: EchoText.elementLimit), slot: elementSlot)
            case .none: break
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
        topNames.forget()
        sampleNames.forget()
    }
}
