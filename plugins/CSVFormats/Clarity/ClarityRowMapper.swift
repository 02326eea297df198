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
    }

    /// True once the header row has been read.
    var sawHeader: Bool { columns != nil }
    /// Cells in the header row, once it has been read.
    var headerWidth: Int? { columns?.count }

    mutating func map<Row: TableRow>(_ row: inout Row, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        guard let cols = columns else {
            if row.isBlank { return }
            guard let c = ClarityColumns(header: row.strings()) else {
                throw InputError(file: options.path, line: row.line,
                                 reason: "not a Dexcom Clarity export: the header has no Timestamp/Event Type/Glucose Value columns")
            }
            columns = c
            return
        }
        let ts = row.trimmed(cols.timestamp)
        let type = row.trimmed(cols.eventType)
        if ts.isEmpty {
            // Metadata rows (patient, device, alert settings) have no timestamp: remember the
            // device, store nothing. Any other row without a timestamp is an error, not metadata.
            if row.isBlank { return }
            guard ClarityColumns.isMetadataType(type) else {
                throw CSVFileRun.Reject(row.count < 3 ? "row has \(row.count) field(s); expected Clarity's \(cols.eventType + 1)+ (wrong separator?)"
                                                      : "row has no timestamp and is not a metadata row")
            }
            if ByteText.equals(type, "Device") {
                if !row.isEmpty(cols.sourceDevice) { defaultSource = sources.symbol(row.trimmed(cols.sourceDevice)) }
                if !row.isEmpty(cols.deviceInfo) { deviceInfo = row.trimmed(cols.deviceInfo).text }
            }
            return
        }
        guard let parsed = pattern.parse(ts) else { throw CSVFileRun.Reject("unreadable timestamp '\(ts.echo)'") }
        let at = try placer.place(parsed, line: row.line)
        let uploaderCell = row.trimmed(cols.sourceDevice)
        let src = uploaderCell.isEmpty ? defaultSource : sources.symbol(uploaderCell)
        let prov = Provenance(file: file, line: row.line)

        if ByteText.equals(type, "EGV") || ByteText.equals(type, "Calibration") || ByteText.equals(type, "Fasting Glucose") {
            let cell = row.trimmed(cols.glucose)
            var flags = at.flags
            let value: Double
            if let v = ByteText.double(cell, decimalComma: false) {
                let (mgdl, converted) = try GlucoseValue.canonical(v, unit: cols.glucoseUnit, cell: cell, what: "glucose value")
                value = mgdl
                flags.formUnion(converted)
            } else if let limit = ClaritySource.outOfRange(cell) {
                value = limit.value
                flags.insert(limit.flag)
            } else {
                throw CSVFileRun.Reject(cell.isEmpty ? "\(type.echo) row without a glucose value"
                                                     : "glucose value '\(cell.echo)' is not a number")
            }
            let isEGV = ByteText.equals(type, "EGV")
            if !isEGV { flags.insert(ByteText.equals(type, "Calibration") ? [.calibration, .userEntered] : .userEntered) }
            let transmitter = cols.transmitter.map { row.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            let device = devices.symbol(uploaderBytes: uploaderCell, fallback: defaultSource, transmitter: transmitter,
                                        deviceInfo: deviceInfo)
            try out.add(Measurement(subject: options.subject, metric: isEGV ? Metrics.glucose : bloodGlucose, source: cgm,
                                    start: at.utc, utcOffset: at.offset, value: value, unit: CanonicalUnits.glucose, flags: flags,
                                    provenance: prov, device: device), emit)
            return
        }

        var event = Event(subject: options.subject, kind: .note, source: src, start: at.utc, utcOffset: at.offset,
                          flags: at.flags, provenance: prov)
        let sub = row.trimmed(cols.subtype)
        if ByteText.equals(type, "Carbs") {
            guard let g = ByteText.double(row.trimmed(cols.carbs)), g >= 0 else {
                throw CSVFileRun.Reject("Carbs row without a carbohydrate amount")
            }
            event.kind = .meal
            event.carbs = g
        } else if ByteText.equals(type, "Insulin") {
            guard let u = ByteText.double(row.trimmed(cols.insulin)), u >= 0 else {
                throw CSVFileRun.Reject("Insulin row without a dose")
            }
            event.kind = .insulin
            event.insulin = u
            event.subtype = ByteText.equalsIgnoringCase(sub, "Long-Acting") ? InsulinKinds.basal : InsulinKinds.bolus
        } else if ByteText.equals(type, "Exercise") || ByteText.equals(type, "Activity") {
            event.kind = .exercise
            event.intensity = sub.isEmpty ? .empty : Symbol(sub.text.lowercased())
            if let d = ByteText.duration(row.trimmed(cols.duration)) { event.end = at.utc + d }
        } else if ByteText.equals(type, "Health") {
            event.kind = .episode  // Illness, Stress, Low Symptoms, Cycle, Alcohol
            event.subtype = sub.isEmpty ? .empty : Symbol(sub.text.lowercased())
        } else if ByteText.equals(type, "Alert") {
            event.kind = .alert
            event.subtype = subtypes.symbol(sub)
        } else if ByteText.equals(type, "Device") {
            event.kind = .device
            event.subtype = subtypes.symbol(row.trimmed(cols.deviceInfo))
        } else {
            // Unknown event types are kept as notes named after the type, never dropped.
            event.subtype = subtypes.symbol(type)
            event.note = sub.isEmpty ? nil : sub.text
        }
        try out.add(event, emit)
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
