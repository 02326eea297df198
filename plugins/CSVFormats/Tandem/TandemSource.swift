import Foundation
import HealthPipeCore

/// Tandem t:connect Therapy Timeline CSV (t:slim X2 with a Dexcom CGM): a preamble, then sections
/// separated by blank lines — CGM/BG readings, insulin on board, basal rate changes, boluses —
/// each with its own header. Times are the pump's local clock without a zone: a zone is required.
final class TandemSource: Source, InputDescribing {
    static let format = "tandem-tconnect"

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var mapper = TandemRowMapper(options: options)
        try CSVFileRun(input: CSVInput(path: options.path), format: Self.format, context: context)
            .run(delimiter: UInt8(ascii: ","), emit: emit, handle: { row, out in
                try mapper.map(&row, &out, emit)
            }, rows: { mapper.tally })
        if mapper.sections == 0 {
            throw InputError(file: options.path, reason: "no t:connect section (readings, IOB, basal or bolus table) was found")
        }
    }
}

/// Rows of a t:connect export → records, section by section.
struct TandemRowMapper {
    let options: CSVCommonOptions
    let file: Symbol
    private var placer: LocalTimePlacer
    private var section: TandemSection? = nil
    private(set) var sections = 0
    /// What became of every data row, by type: a reading's Description (EGV, BG) or its section (IOB,
    /// Basal, Bolus); a reading type or a section HealthPipe does not know counted by its text, unknown.
    private(set) var tally = RowTally(types: ["EGV", "BG", "IOB", "Basal", "Bolus"])
    private static let egv = 0, bg = 1, iobSlot = 2, basalSlot = 3, bolusSlot = 4
    private let patterns = TandemWords.timePatterns.map { try! TimestampPattern($0) }
    private var pumps = ByteSymbolCache()
    private var cgmDevices: [Symbol: Symbol] = [:]
    private let dexcom = Symbol(CGMSource.dexcom), bloodGlucose = Symbol("blood_glucose")
    private let iobMetric = Symbol("insulin_on_board")
    /// The pump of IOB, basal and bolus rows: the readings' DeviceType (`Tandem Mobi system`), t:slim X2 until one is read.
    private var pumpSource = Symbol("t:slim X2")

    init(options: CSVCommonOptions) {
        self.options = options
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: "Tandem t:connect")
    }

    /// Maps a row and counts it under its type: stored, or quarantined (thrown). Blank lines, the
    /// preamble and section headers are not data rows.
    mutating func map<Row: TableRow>(_ row: inout Row, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        var slot = tally.untyped
        let result = Result { try mapRow(&row, &slot, &out, emit) }
        try tally.account(slot, result)
    }

    /// nil: not a data row. `slot`: the row's type (an unknown one's by its text).
    private mutating func mapRow<Row: TableRow>(_ row: inout Row, _ slot: inout Int, _ out: inout BatchBuilder,
                                                _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome? {
        if row.isBlank { return nil }  // blank lines separate sections (libcsv does not even report them)
        // A section header starts with `Type` or `DeviceType`; data rows start with their type's value.
        let first = row.trimmed(0)
        if ByteText.equalsIgnoringCase(first, "Type") || ByteText.equalsIgnoringCase(first, "DeviceType"),
           let s = TandemSection(header: row.strings()) {
            section = s
            sections += 1
            return nil
        }
        switch section {
        case nil: return nil  // the preamble (patient name, report date)
        case .unknown?:
            // A section no reader knows: its rows are kept whole in quarantine, counted by their first cell.
            slot = tally.slot(named: first, known: false)
            throw CSVFileRun.Reject("a row of a t:connect section HealthPipe does not read (its first cell: '\(first.echo)')")
        case .readings(let c)?:
            let kind = row.trimmed(c.description)
            if ByteText.equalsIgnoringCase(kind, "EGV") { slot = Self.egv } else if ByteText.equalsIgnoringCase(kind, "BG") { slot = Self.bg } else {
                slot = tally.slot(named: kind, known: false)
                throw CSVFileRun.Reject("unknown reading type '\(kind.echo)' (EGV or BG expected)")
            }
            try reading(row, c, &out, emit)
        case .iob(let c)?: slot = Self.iobSlot; try iob(row, c, &out, emit)
        case .basal(let c)?: slot = Self.basalSlot; try basal(row, c, &out, emit)
        case .bolus(let c)?: slot = Self.bolusSlot; try bolus(row, c, &out, emit)
        }
        return .stored
    }

    private mutating func time<Row: TableRow>(_ row: Row, _ column: Int) throws -> ZoneResolver.Resolved {
        let cell = row.trimmed(column)
        guard let t = parseTime(cell) else {
            throw CSVFileRun.Reject(cell.isEmpty ? "row without an EventDateTime" : "unreadable time '\(cell.text)'")
        }
        return try placer.place(t, line: row.line)
    }

    private func parseTime(_ cell: UnsafeRawBufferPointer) -> ParsedTimestamp? {
        for p in patterns { if let t = p.parse(cell) { return t } }
        return nil
    }

    private func number<Row: TableRow>(_ row: Row, _ column: Int?, _ what: String, _ range: ClosedRange<Double>) throws -> Double? {
        guard let column else { return nil }
        let cell = row.trimmed(column)
        if cell.isEmpty { return nil }
        guard let v = ByteText.double(cell) else { throw CSVFileRun.Reject("\(what) '\(cell.text)' is not a number") }
        guard range.contains(v) else { throw CSVFileRun.Reject("\(what) \(cell.text) is outside \(range.lowerBound)–\(range.upperBound)") }
        return v
    }

    /// EGV → glucose (source Dexcom: the pump relays the Dexcom CGM), BG → blood_glucose entered on the pump.
    private mutating func reading<Row: TableRow>(_ row: Row, _ c: TandemSection.Readings, _ out: inout BatchBuilder,
                                                 _ emit: (RecordBatch) throws -> Void) throws {
        let at = try time(row, c.time)
        let kind = row.trimmed(c.description)
        let cell = row.trimmed(c.value)
        var flags = at.flags
        let value: Double
        if let v = ByteText.double(cell) {
            let mgdl = c.unit.toMgdl(v)
            guard TandemRanges.glucose.contains(mgdl) else {
                throw CSVFileRun.Reject("reading \(cell.text) \(c.unit.rawValue) is out of range")
            }
            value = mgdl
            if c.unit == .mmol { flags.insert(.convertedFromMmol) }
        } else if let limit = ClaritySource.outOfRange(cell) {  // the pump shows the Dexcom sensor's Low/High
            value = limit.value
            flags.insert(limit.flag)
        } else {
            throw CSVFileRun.Reject(cell.isEmpty ? "reading without a value" : "reading '\(cell.text)' is not a number")
        }
        let pump = pumps.symbol(row.trimmed(c.deviceType))
        if !row.isEmpty(c.deviceType) { pumpSource = pump }
        let meter = ByteText.equalsIgnoringCase(kind, "BG")
        if meter { flags.insert(.userEntered) }
        if !meter, !ByteText.equalsIgnoringCase(kind, "EGV") {
            throw CSVFileRun.Reject("unknown reading type '\(kind.text)' (EGV or BG expected)")
        }
        let device = cgmDevices[pump] ?? {
            let d = CGMSource.device(family: CGMSource.dexcom, model: nil, serial: nil, uploader: pump.text)
            cgmDevices[pump] = d
            return d
        }()
        try out.add(Measurement(subject: options.subject, metric: meter ? bloodGlucose : Metrics.glucose,
                                source: meter ? pump : dexcom, start: at.utc, utcOffset: at.offset, value: value,
                                unit: CanonicalUnits.glucose, flags: flags, provenance: Provenance(file: file, line: row.line),
                                device: meter ? .empty : device), emit)
    }

    private mutating func iob<Row: TableRow>(_ row: Row, _ c: TandemSection.IOB, _ out: inout BatchBuilder,
                                             _ emit: (RecordBatch) throws -> Void) throws {
        let at = try time(row, c.time)
        guard let v = try number(row, c.iob, "IOB", TandemRanges.insulin) else { throw CSVFileRun.Reject("IOB row without a value") }
        try out.add(Measurement(subject: options.subject, metric: iobMetric, source: pumpSource, start: at.utc, utcOffset: at.offset,
                                value: v, unit: CanonicalUnits.insulinUnits, flags: at.flags,
                                provenance: Provenance(file: file, line: row.line)), emit)
    }

    /// A basal rate change: a `basal_rate` measurement (BasalRates): at an instant a scheduled change,
    /// with a Duration a rate over that span. The amount delivered is not in the file, so it does not
    /// count in daily insulin totals.
    private mutating func basal<Row: TableRow>(_ row: Row, _ c: TandemSection.Basal, _ out: inout BatchBuilder,
                                               _ emit: (RecordBatch) throws -> Void) throws {
        let at = try time(row, c.time)
        guard let rate = try number(row, c.rate, "BasalRate", TandemRanges.basalRate) else {
            throw CSVFileRun.Reject("basal row without a BasalRate")
        }
        let minutes = try number(row, c.duration, "Duration", 0...(14 * 24 * 60))
        try out.add(BasalRates.measurement(rate, subject: options.subject, source: pumpSource, start: at.utc,
                                           end: at.utc + Int64((minutes ?? 0) * 60), utcOffset: at.offset, flags: at.flags,
                                           provenance: Provenance(file: file, line: row.line)), emit)
    }

    /// A bolus: insulin delivered as an insulin event `bolus` from request (an extended bolus: from its
    /// Bolex start) to completion; its carbs (CarbSize) as a meal event. Calculator details go into the
    /// metadata. InsulinDelivered is the whole bolus, its extended part included (a real Tandem Source
    /// export: `InsulinDelivered` 4.32 = `FoodDelivered` 4.32 with `BolexInsulinDelivered` 1.72 at
    /// `StandardPercent` 60); BolexInsulinDelivered counts only when InsulinDelivered is empty.
    private mutating func bolus<Row: TableRow>(_ row: Row, _ c: TandemSection.Bolus, _ out: inout BatchBuilder,
                                               _ emit: (RecordBatch) throws -> Void) throws {
        var at = try time(row, c.request ?? c.time)
        let delivered = try number(row, c.insulin, "InsulinDelivered", TandemRanges.insulin)
        let extended = try number(row, c.bolexInsulin, "BolexInsulinDelivered", TandemRanges.insulin) ?? 0
        let total = delivered ?? extended
        if extended > 0, let s = c.bolexStart, let t = parseTime(row.trimmed(s)) {
            let start = try placer.place(t, line: row.line)
            if start.utc < at.utc { at = start }
        }
        let carbs = try number(row, c.carbs, "CarbSize", TandemRanges.carbs) ?? 0
        var meta = JSONWriter(capacity: 256)
        meta.beginObject()
        if let d = c.description, !row.isEmpty(d) { meta.key("description"); meta.string(row.trimmed(d).text) }
        if let s = c.status, !row.isEmpty(s) { meta.key("status"); meta.string(row.trimmed(s).text) }
        for (name, i) in c.extras where !row.isEmpty(i) {
            meta.key(name)
            if let v = ByteText.double(row.trimmed(i)) { meta.double(v) } else { meta.string(row.trimmed(i).text) }
        }
        meta.endObject()
        let metadata = String(decoding: meta.bytes, as: UTF8.self)
        let prov = Provenance(file: file, line: row.line)
        if total > 0 {
            var e = Event(subject: options.subject, kind: .insulin, subtype: InsulinKinds.bolus, source: pumpSource, start: at.utc,
                          utcOffset: at.offset, insulin: total, flags: at.flags, provenance: prov, metadata: metadata)
            let endColumn = extended > 0 ? (c.bolexCompletion ?? c.completion) : c.completion
            if let endColumn, let t = parseTime(row.trimmed(endColumn)) {
                let end = try placer.place(t, line: row.line)
                if end.utc > at.utc { e.end = end.utc }
            }
            try out.add(e, emit)
        }
        if carbs > 0 {
            try out.add(Event(subject: options.subject, kind: .meal, source: pumpSource, start: at.utc, utcOffset: at.offset,
                              carbs: carbs, flags: at.flags, provenance: prov, metadata: metadata), emit)
        }
        if total == 0, carbs == 0 {
            throw CSVFileRun.Reject("bolus row with no insulin delivered and no carbs")
        }
    }
}

/// Plausible values of a t:connect export: the shared table's (HealthPipeCore/Units/Plausibility.swift).
enum TandemRanges {
    static let glucose = Plausibility.glucoseMgdl
    static let insulin = Plausibility.insulinDose
    static let basalRate = Plausibility.basalRate
    static let carbs = Plausibility.mealGrams
}

extension Double {
    /// Shortest JSON text of a finite number.
    var formattedForJSON: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
