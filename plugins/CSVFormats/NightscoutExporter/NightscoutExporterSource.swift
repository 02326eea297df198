import Foundation
import HealthPipeCore

/// The community nightscout-exporter CSV: `# CGM ENTRIES` then `# TREATMENTS (Insulin, Carbs,
/// Exercise)`, each section a header row and quoted rows, US dates and a 12-hour clock in the
/// exporter's local zone (the file records none). Both sections land; the layout is data
/// (`NightscoutExporterLayout`), the mapping mirrors the Nightscout JSON source's.
final class NightscoutExporterSource: Source, InputDescribing {
    static let format = "nightscout-exporter"

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var mapper = NightscoutExporterMapper(options: options)
        try CSVFileRun(input: CSVInput(path: options.path), format: Self.format, context: context)
            .run(delimiter: UInt8(ascii: ","), emit: emit) { row, out in try mapper.map(row.strings(), line: row.line, &out, emit) }
        if mapper.sections == 0 {
            throw InputError(file: options.path, reason: "no '# CGM ENTRIES' or '# TREATMENTS' section was found")
        }
        if mapper.calibrations > 0 {
            context.warn("\(options.path): \(mapper.calibrations) 'cal' rows (sensor calibration factors, not readings) were not imported")
        }
    }
}

/// The exporter's layout: section markers and the header words of each section.
enum NightscoutExporterLayout {
    enum Section { case cgm, treatments }
    static let markers: [(prefix: String, section: Section)] = [("# cgm entries", .cgm), ("# treatments", .treatments)]
    static let cgmColumns = ["date", "time", "glucose (mg/dl)", "type", "device", "trend", "id"]
    static let treatmentColumns = ["date", "time", "event type", "insulin (u)", "carbs (g)", "notes", "id"]
    static let timestamp = try! TimestampPattern("%m/%d/%Y %I:%M:%S %p")
    /// Event types whose row exists to record a dose (a row of one without an amount is bad).
    static let doseTypes: Set<String> = ["bolus", "smb", "meal bolus", "correction bolus", "snack bolus", "combo bolus",
                                         "carb correction"]
    static let deviceTypes: Set<String> = ["site change", "insulin change", "sensor start", "sensor change", "sensor stop",
                                           "pump battery change", "cannula change", "pod change", "reservoir change"]
}

struct NightscoutExporterMapper {
    typealias L = NightscoutExporterLayout
    let options: CSVCommonOptions
    let file: Symbol
    private var placer: LocalTimePlacer
    private var section: L.Section?
    private var columns: [String: Int] = [:]
    private(set) var sections = 0
    private(set) var calibrations = 0
    private let nightscout = Symbol("Nightscout"), bloodGlucose = Symbol("blood_glucose"), tempBasal = Symbol("temp_basal")

    init(options: CSVCommonOptions) {
        self.options = options
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: "nightscout-exporter")
    }

    mutating func map(_ cells: [String], line: Int64, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let first = (cells.first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return }
        if first.hasPrefix("#") {
            section = L.markers.first(where: { first.hasPrefix($0.prefix) })?.section
            if section != nil { sections += 1 }
            columns = [:]
            return
        }
        guard let section else { return }
        if columns.isEmpty {
            let header = cells.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let want = section == .cgm ? L.cgmColumns : L.treatmentColumns
            guard want.allSatisfy(header.contains) else {
                throw CSVFileRun.Reject("not the \(section == .cgm ? "CGM" : "treatments") header (\(want.joined(separator: ",")))")
            }
            for (i, h) in header.enumerated() where columns[h] == nil { columns[h] = i }
            return
        }
        let columns = self.columns
        let cell: (String) -> String = { name in
            guard let i = columns[name], i < cells.count else { return "" }
            return cells[i].trimmingCharacters(in: .whitespaces)
        }
        guard let t = L.timestamp.parse(cell("date") + " " + cell("time")) else {
            throw CSVFileRun.Reject("unreadable date/time '\(cell("date")) \(cell("time"))' (M/D/YYYY h:mm:ss AM/PM expected)")
        }
        let at = try placer.place(t, line: line)
        let prov = Provenance(file: file, line: line)
        switch section {
        case .cgm: try reading(cell, at, prov, &out, emit)
        case .treatments: try treatment(cell, at, prov, &out, emit)
        }
    }

    private mutating func reading(_ cell: (String) -> String, _ at: ZoneResolver.Resolved, _ prov: Provenance,
                                  _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let type = cell("type").lowercased()
        if type == "cal" { calibrations += 1; return }
        guard type == "sgv" || type == "mbg" else { throw CSVFileRun.Reject("unknown entry type '\(cell("type"))' (sgv, mbg or cal)") }
        let text = cell("glucose (mg/dl)")
        guard let v = Double(text) else { throw CSVFileRun.Reject(text.isEmpty ? "entry without a glucose value" : "glucose '\(text)' is not a number") }
        let meter = type == "mbg"
        let device = cell("device")
        let family = CGMSource.family(of: device) ?? "Nightscout"
        var flags = at.flags
        if meter { flags.insert(.userEntered) }
        try out.add(Measurement(subject: options.subject, metric: meter ? bloodGlucose : Metrics.glucose,
                                source: Symbol(family), start: at.utc, utcOffset: at.offset, value: v, unit: CanonicalUnits.glucose,
                                flags: flags, provenance: prov,
                                device: CGMSource.device(family: family, model: CGMSource.model(of: device), serial: nil,
                                                         uploader: device.isEmpty ? nil : device),
                                metadata: metadata(["direction": cell("trend"), "_id": cell("id")])), emit)
    }

    private func treatment(_ cell: (String) -> String, _ at: ZoneResolver.Resolved, _ prov: Provenance,
                           _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let eventType = cell("event type")
        let type = eventType.lowercased()
        func amount(_ name: String, _ range: ClosedRange<Double>, _ unit: String) throws -> Double? {
            let text = cell(name)
            if text.isEmpty { return nil }
            guard let v = Double(text) else { throw CSVFileRun.Reject("\(name) '\(text)' is not a number") }
            if let why = Plausibility.check(v, range, name, unit: unit) { throw CSVFileRun.Reject(why) }
            return v
        }
        let insulin = try amount("insulin (u)", Plausibility.insulinDose, "U")
        let carbs = try amount("carbs (g)", Plausibility.mealGrams, "g")
        let note = cell("notes")
        var base = Event(subject: options.subject, kind: .note, source: nightscout, start: at.utc, utcOffset: at.offset,
                         note: note.isEmpty ? nil : note, flags: at.flags, provenance: prov,
                         metadata: metadata(["eventType": eventType, "_id": cell("id")]))
        if type == "temp basal" {
            // The exporter writes no rate or duration: the temp basal is kept as an event, no amount.
            base.kind = .insulin
            base.subtype = tempBasal
            try out.add(base, emit)
            return
        }
        if L.deviceTypes.contains(type) {
            base.kind = .device
            base.subtype = Symbol(Self.snake(eventType))
            try out.add(base, emit)
            return
        }
        var wrote = false
        if let insulin, insulin > 0 {
            try out.add(base.bolus(units: insulin), emit)
            wrote = true
        }
        if let carbs, carbs > 0 {
            try out.add(base.meal(carbs: carbs), emit)
            wrote = true
        }
        if !wrote {
            if L.doseTypes.contains(type) { throw CSVFileRun.Reject("\(eventType) without an insulin or carbs amount") }
            base.subtype = Symbol(eventType.isEmpty ? "note" : Self.snake(eventType))
            try out.add(base, emit)
        }
    }

    /// The row's own fields that have no column (`{"eventType":"SMB","_id":"69d5…"}`).
    private func metadata(_ fields: KeyValuePairs<String, String>) -> String? {
        var w = JSONWriter(capacity: 96)
        w.beginObject()
        var any = false
        for (k, v) in fields where !v.isEmpty {
            w.key(k); w.string(v)
            any = true
        }
        w.endObject()
        return any ? String(decoding: w.bytes, as: UTF8.self) : nil
    }

    /// `Temporary Target` → `temporary_target`.
    static func snake(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
    }
}
