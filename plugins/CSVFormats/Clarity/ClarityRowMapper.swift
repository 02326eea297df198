import Foundation
import HealthPipeCore

/// Maps the rows of a Clarity export (CSV or XLSX) to records: the header locates the columns,
/// metadata rows (no timestamp) name the device, data rows become readings and events.
/// CGM and meter readings take the canonical source `Dexcom` (`CGMSource`), with the model,
/// transmitter and uploader (`Source Device ID`) in the device; events keep the uploader as source.
struct ClarityRowMapper {
    let options: CSVCommonOptions
    let file: Symbol
    private var columns: ClarityColumns? = nil
    private var placer: LocalTimePlacer
    private let pattern = try! TimestampPattern("%Y-%m-%dT%H:%M:%S")
    private var sources = ByteSymbolCache()
    private var subtypes = ByteSymbolCache()
    private var kinds = ClarityEventKinds()
    /// Set at the first row with a timestamp: untimed rows before it are the metadata preamble.
    private var sawTimedRow = false
    /// The last unambiguous reading's local time and transmitter clock (seconds), to place a DST repeated hour.
    private var clock: (local: Int64, ticks: Int64)? = nil
    /// The previous sensor reading's instant and transmitter clock, to catch a clock-change overlap.
    private var lastReading: (utc: Int64, ticks: Int64)? = nil
    private let followsFile: Bool
    private var resolver: ZoneResolver?
    private var devices = ClarityDevices()
    private let dexcom = Symbol("Dexcom"), cgm = Symbol(CGMSource.dexcom)
    private let bloodGlucose = Symbol("blood_glucose")
    private var defaultSource: Symbol
    /// `Device Info` of the Device metadata row (`Dexcom G6 Mobile App`): names the model when the uploader does not.
    private var deviceInfo = ""

    init(options: CSVCommonOptions, format: String = "Dexcom Clarity") {
        self.options = options
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: format)
        defaultSource = dexcom
        followsFile = options.ambiguous == .fileOrder
        resolver = options.zone.map { ZoneResolver(zone: $0, ambiguous: .earlier, nonexistent: options.nonexistent) }
    }

    /// True once the header row has been read.
    var sawHeader: Bool { columns != nil }
    /// Cells in the header row, once it has been read.
    var headerWidth: Int? { columns?.count }

    /// What became of every data row, by Event Type: a slot per kind, named by the file's spelling;
    /// untimed metadata rows (FirstName, Device…) and types no language names counted by their text.
    /// A type no language names is known when its cells tell what the row is (a glucose value, a dose,
    /// carbs, a duration: `inferKind`); one whose cells tell nothing is unknown (kept as a note, warned).
    private(set) var tally = RowTally(knownTypes: Self.kindSlots)
    /// One slot per known kind; `.unknown`'s slot is the tally's slot for rows with an empty type.
    static let kindSlots = Int(ClarityEventKind.unknown.rawValue)
    /// Marks a row counted by its type's text (`tallySlot`): a type nothing identifies; a metadata row
    /// or a type its cells identify.
    private static let unknownSlot = -1, namedSlot = -2

    /// Maps the row and counts it under its Event Type: stored, skipped (a metadata row), or
    /// quarantined (thrown). Blank rows and the header are not data rows.
    mutating func map<Row: TableRow>(_ row: inout Row, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        var slot = tally.untyped
        let result = Result { try mapRow(&row, &slot, &out, emit) }
        try tally.account(tallySlot(row, slot), result)
    }

    /// Counts a row a source refuses before mapping it (a CSV row wider than the header) under its type.
    mutating func refused<Row: TableRow>(_ row: Row) {
        guard let cols = columns else { return }
        let kind = kinds.kind(row.trimmed(cols.eventType))
        tally.count(tallySlot(row, kind == .unknown ? Self.unknownSlot : Int(kind.rawValue)), .quarantined)
    }

    /// The tally's slot of a row: a kind's own, or the slot of its Event Type's text (known when a
    /// metadata row or identified by its cells; decided by the type's first row).
    private mutating func tallySlot<Row: TableRow>(_ row: Row, _ slot: Int) -> Int {
        guard slot < 0, let cols = columns else { return slot }
        let type = row.trimmed(cols.eventType)
        return type.isEmpty ? tally.untyped : tally.slot(named: type, known: slot == Self.namedSlot)
    }

    /// nil: not a data row (blank, the header).
    private mutating func mapRow<Row: TableRow>(_ row: inout Row, _ slot: inout Int, _ out: inout BatchBuilder,
                                                _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome? {
        guard let cols = columns else {
            if row.isBlank { return nil }
            guard let c = ClarityColumns(header: row.strings()) else {
                throw InputError(file: options.path, line: row.line,
                                 reason: "not a Dexcom Clarity export: the header has no Timestamp/Event Type/Glucose Value columns")
            }
            columns = c
            return nil
        }
        let ts = row.trimmed(cols.timestamp)
        let typeCell = row.trimmed(cols.eventType)
        let kind = kinds.kind(typeCell)
        if kind != .unknown {
            slot = Int(kind.rawValue)
            tally.name(slot, typeCell)
        } else if !typeCell.isEmpty {
            slot = Self.unknownSlot
        }
        if ts.isEmpty {
            // Metadata rows (patient, device, alert settings) have no timestamp: remember the
            // device, store nothing. They are the rows before the first timed row (any language),
            // or carry a known metadata type; any other row without a timestamp is an error.
            if row.isBlank { return nil }
            let preamble = !sawTimedRow && row.count > cols.eventType && !typeCell.isEmpty
            guard preamble || ClarityColumns.isMetadataKind(kind) else {
                throw CSVFileRun.Reject(row.count < 3 ? "row has \(row.count) field(s); expected Clarity's \(cols.eventType + 1)+ (wrong separator?)"
                                                      : "row has no timestamp and is not a metadata row")
            }
            // The Device row is the metadata row that names the display device, in every language.
            if kind == .device || (kind == .unknown && !row.isEmpty(cols.deviceInfo)) {
                if !row.isEmpty(cols.sourceDevice) { defaultSource = sources.symbol(row.trimmed(cols.sourceDevice)) }
                if !row.isEmpty(cols.deviceInfo) { deviceInfo = row.trimmed(cols.deviceInfo).text }
            }
            // Skipped as metadata, counted by its own type (FirstName, LastName… share a kind).
            slot = Self.namedSlot
            return .skipped
        }
        sawTimedRow = true
        guard let parsed = pattern.parse(ts) else { throw CSVFileRun.Reject("unreadable timestamp '\(ts.echo)'") }
        var at = try placer.place(parsed, line: row.line)
        // The transmitter clock (seconds), parsed once: it places a DST repeated hour and catches a clock-change overlap.
        let ticks = cols.transmitterTime.flatMap { ByteText.int(row.trimmed($0)) }
        if let ticks, followsFile { try passOfRepeatedHour(&at, parsed.seconds, ticks) }
        let uploaderCell = row.trimmed(cols.sourceDevice)
        let src = uploaderCell.isEmpty ? defaultSource : sources.symbol(uploaderCell)
        let prov = Provenance(file: file, line: row.line)

        let effective = kind == .unknown ? inferKind(row, cols, uploaderCell) : kind
        if kind == .unknown, effective != .unknown { slot = Self.namedSlot }
        switch effective {
        case .egv, .calibration, .fastingGlucose:
            if effective == .egv, let ticks { try rejectOverlapReading(at.utc, ticks) }
            try addReading(row, cols, effective, typeCell, at, uploaderCell, prov, &out, emit)
        case .carbs:
            guard let g = Self.number(row.trimmed(cols.carbs)), g >= 0 else {
                throw CSVFileRun.Reject("Carbs row without a carbohydrate amount")
            }
            var event = rowEvent(.meal, at, src, prov)
            event.carbs = g
            try out.add(event, emit)
        case .insulin:
            guard let u = Self.number(row.trimmed(cols.insulin)), u >= 0 else {
                throw CSVFileRun.Reject("Insulin row without a dose")
            }
            var event = rowEvent(.insulin, at, src, prov)
            event.insulin = u
            let sub = row.trimmed(cols.subtype)
            event.subtype = ClarityVocabulary.longActingWords.contains(sub.text.lowercased()) ? InsulinKinds.basal : InsulinKinds.bolus
            try out.add(event, emit)
        default:
            try out.add(otherEvent(row, cols, effective, typeCell, at, src, prov), emit)
        }
        return .stored
    }

    /// Clarity sorts by local time, so in a DST fall-back the two passes of the repeated hour are
    /// interleaved (01:01 second pass, 01:01 first pass, 01:06 …) and file order cannot tell them
    /// apart. The transmitter's clock can: since the last unambiguous reading it has run as long as the
    /// wall clock on the first pass, and one DST shift longer on the second.
    private mutating func passOfRepeatedHour(_ at: inout ZoneResolver.Resolved, _ local: Int64,
                                             _ ticks: Int64) throws {
        guard at.flags.contains(.ambiguousLocalTime) else {
            clock = (local, ticks)
            return
        }
        guard let ref = clock, var r = resolver else { return }
        let earlier = try r.resolve(local: local, ambiguous: .earlier), later = try r.resolve(local: local, ambiguous: .later)
        let shift = later.utc - earlier.utc, drift = (ticks - ref.ticks) - (local - ref.local)
        guard shift > 0 else { return }
        if abs(drift) * 2 <= shift { at = earlier } else if abs(drift - shift) * 2 <= shift { at = later }
        resolver = r
    }

    /// When the display device's clock moves back (travel west, a manual change; not DST, which the zone places),
    /// Clarity writes the overlap's local times twice, interleaved, a transmitter-clock shift apart. The second
    /// reading of a pair lands on the first one's instant and would vanish as its duplicate; it cannot be moved
    /// by local time either (its neighbours sit on the same wall-clock grid), so it is quarantined with its line.
    private mutating func rejectOverlapReading(_ utc: Int64, _ ticks: Int64) throws {
        defer { lastReading = (utc, ticks) }
        guard let last = lastReading, last.utc == utc, last.ticks != ticks else { return }
        throw CSVFileRun.Reject("same local time as the reading before it but \(ticks - last.ticks) s apart on the "
                                + "transmitter clock: the display device's clock moved back (time-zone change?), "
                                + "so local time cannot place this reading")
    }

    /// A glucose reading: EGV (sensor), Calibration or Fasting Glucose (meter, user-entered).
    private mutating func addReading<Row: TableRow>(_ row: Row, _ cols: ClarityColumns, _ kind: ClarityEventKind,
                                                    _ typeCell: UnsafeRawBufferPointer, _ at: ZoneResolver.Resolved,
                                                    _ uploaderCell: UnsafeRawBufferPointer, _ prov: Provenance,
                                                    _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let cell = row.trimmed(cols.glucose)
        var flags = at.flags
        let value: Double
        if let v = Self.number(cell) {
            let (mgdl, converted) = try GlucoseValue.canonical(v, unit: cols.glucoseUnit, cell: cell, what: "glucose value")
            value = mgdl
            flags.formUnion(converted)
        } else if let limit = ClaritySource.outOfRange(cell) {
            value = limit.value
            flags.insert(limit.flag)
        } else {
            throw CSVFileRun.Reject(cell.isEmpty ? "\(typeCell.echo) row without a glucose value"
                                                 : "glucose value '\(cell.echo)' is not a number")
        }
        let isEGV = kind == .egv
        if !isEGV { flags.insert(kind == .calibration ? [.calibration, .userEntered] : .userEntered) }
        let transmitter = cols.transmitter.map { row.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let device = devices.symbol(uploaderBytes: uploaderCell, fallback: defaultSource, transmitter: transmitter,
                                    deviceInfo: deviceInfo)
        try out.add(Measurement(subject: options.subject, metric: isEGV ? Metrics.glucose : bloodGlucose, source: cgm,
                                start: at.utc, utcOffset: at.offset, value: value, unit: CanonicalUnits.glucose, flags: flags,
                                provenance: prov, device: device), emit)
    }

    /// An event of this row (its time, source and line); the caller sets its amounts.
    @inline(__always)
    private func rowEvent(_ kind: Event.Kind, _ at: ZoneResolver.Resolved, _ src: Symbol, _ prov: Provenance) -> Event {
        Event(subject: options.subject, kind: kind, source: src, start: at.utc, utcOffset: at.offset, flags: at.flags, provenance: prov)
    }

    /// Exercise, Health, Alert and Device rows, and types no language of the table names (kept as notes).
    private mutating func otherEvent<Row: TableRow>(_ row: Row, _ cols: ClarityColumns, _ kind: ClarityEventKind,
                                                    _ typeCell: UnsafeRawBufferPointer, _ at: ZoneResolver.Resolved, _ src: Symbol,
                                                    _ prov: Provenance) -> Event {
        var event = rowEvent(.note, at, src, prov)
        let sub = row.trimmed(cols.subtype)
        switch kind {
        case .exercise:
            event.kind = .exercise
            if !sub.isEmpty {
                let word = sub.text.lowercased()
                event.intensity = Symbol(ClarityVocabulary.intensities[word] ?? word)
            }
            if let d = ByteText.duration(row.trimmed(cols.duration)) { event.end = at.utc + d }
        case .health:
            event.kind = .episode  // Illness, Stress, Low Symptoms, Cycle, Alcohol
            event.subtype = sub.isEmpty ? .empty : Symbol(sub.text.lowercased())
        case .alert:
            event.kind = .alert
            event.subtype = subtypes.symbol(sub)
        case .device:
            event.kind = .device
            event.subtype = subtypes.symbol(row.trimmed(cols.deviceInfo))
        default:
            // Unknown event types are kept as notes named after the type, never dropped.
            event.subtype = subtypes.symbol(typeCell)
            event.note = sub.isEmpty ? nil : sub.text
        }
        return event
    }

    /// An Event Type no language of the table names, judged by the row's cells: a glucose value
    /// with a transmitter (or, in the 12-column layout, an uploader) is a sensor reading, one
    /// without is a meter reading; then insulin, carbs, a duration (exercise); else a note.
    private func inferKind<Row: TableRow>(_ row: Row, _ cols: ClarityColumns, _ uploader: UnsafeRawBufferPointer) -> ClarityEventKind {
        if !row.isEmpty(cols.glucose) {
            if let t = cols.transmitterTime {
                return row.isEmpty(t) && (cols.transmitter.map { row.isEmpty($0) } ?? true) ? .fastingGlucose : .egv
            }
            return uploader.isEmpty ? .fastingGlucose : .egv
        }
        if Self.number(row.trimmed(cols.insulin)) != nil { return .insulin }
        if Self.number(row.trimmed(cols.carbs)) != nil { return .carbs }
        if !row.isEmpty(cols.duration) { return .exercise }
        return .unknown
    }

    /// A number with a decimal point, or a decimal comma (French, German… exports: `"4,9"`).
    @inline(__always)
    static func number(_ cell: UnsafeRawBufferPointer) -> Double? {
        ByteText.double(cell) ?? ByteText.double(cell, decimalComma: true)
    }
}

/// Device symbols of Clarity readings by (uploader, transmitter): a handful per export. Rows repeat
/// the previous row's device, so the last hit is checked first with two memcmps.
struct ClarityDevices {
    private struct Key {
        var uploader: [UInt8], transmitter: [UInt8], info: String, fallback: Symbol, symbol: Symbol
    }
    private var keys: [Key] = []
    private var last = -1

    /// `fallback` names the uploader when the row's cell is empty (the Device row's Source Device ID).
    mutating func symbol(uploaderBytes: UnsafeRawBufferPointer, fallback: Symbol, transmitter: UnsafeRawBufferPointer,
                         deviceInfo: String) -> Symbol {
        if last >= 0, matches(keys[last], uploaderBytes, fallback, transmitter, deviceInfo) { return keys[last].symbol }
        for i in keys.indices where matches(keys[i], uploaderBytes, fallback, transmitter, deviceInfo) {
            last = i
            return keys[i].symbol
        }
        let uploader = uploaderBytes.isEmpty ? (fallback == .empty ? "" : fallback.text) : uploaderBytes.text
        let model = CGMSource.model(of: uploader) ?? CGMSource.model(of: deviceInfo)
        let s = CGMSource.device(family: CGMSource.dexcom, model: model, serial: transmitter.isEmpty ? nil : transmitter.text,
                                 uploader: uploader)
        if keys.count >= 16 { keys.removeFirst() }
        keys.append(Key(uploader: Array(uploaderBytes), transmitter: Array(transmitter), info: deviceInfo, fallback: fallback, symbol: s))
        last = keys.count - 1
        return s
    }

    @inline(__always)
    private func matches(_ k: Key, _ uploader: UnsafeRawBufferPointer, _ fallback: Symbol, _ transmitter: UnsafeRawBufferPointer,
                         _ info: String) -> Bool {
        k.fallback == fallback && Self.same(k.uploader, uploader) && Self.same(k.transmitter, transmitter) && k.info == info
    }

    @inline(__always)
    private static func same(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { memcmp($0.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
}
