import HealthPipeCore

/// Turns one LibreView data row into records, by its Record Type:
/// 0 historic and 1 scan glucose → `glucose`; 2 strip → `blood_glucose` (user-entered); ketone cells →
/// `ketone`; 4 insulin, 5 food, 6 notes and 3 → events; a type outside 0–6 is quarantined whole. Every cell is checked before
/// anything is added, so a rejected row never lands half-way.
struct LibreViewRowMapper {
    let columns: LibreViewColumns
    let order: DateOrder
    let subject: Symbol
    let file: Symbol
    var placer: LocalTimePlacer
    private var devices = ByteSymbolCache()
    private var scanSources: [Symbol: Symbol] = [:]
    /// The events of the row being read; held by `events` once the whole row is read.
    private var rowEvents: [Event] = []
    private var events = LibreViewEventMerger()

    private let bloodGlucose = Symbol("blood_glucose")
    private let mmolPerL = Symbol("mmol/L")
    private let defaultSource = Symbol("FreeStyle Libre")
    private let unknownType = Symbol("unknown")

    init(columns: LibreViewColumns, order: DateOrder, options: CSVCommonOptions, format: String) {
        self.columns = columns
        self.order = order
        subject = options.subject
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: format, pairsEqualClockTimes: true)
    }

    /// What became of every data row, by Record Type: slots 0–6 (the documented types), the tally's
    /// own slot for an empty type, any other text counted by itself as unknown.
    private(set) var tally = RowTally(knownTypes: 7)

    mutating func map(_ row: CSVRow, into out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        rowEvents.removeAll(keepingCapacity: true)
        var slot = tally.untyped
        let result = Result { () throws -> RowTally.Outcome? in
            guard let fate = try mapRow(row, &slot, into: &out, emit) else { return nil }
            // Every event of the row is checked before any is held: a rejected row lands in no part.
            for e in rowEvents {
                if let problem = Plausibility.eventProblem(insulin: e.insulin, carbs: e.carbs) { throw CSVFileRun.Reject(problem) }
            }
            for e in rowEvents { events.add(e) }
            return fate
        }
        try tally.account(slot, result)
    }

    /// Adds the held events (notes, doses, meals) once the file is read.
    mutating func finish(into out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        try events.drain(into: &out, emit)
    }

    /// nil: a blank line, not a data row; `slot`: the row's Record Type (`tally`).
    private mutating func mapRow(_ row: CSVRow, _ slot: inout Int, into out: inout BatchBuilder,
                                 _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome? {
        if row.isBlank { return nil }
        let typeCell = row.trimmed(columns.recordType)
        let type = ByteText.int(typeCell)
        if let type, (0...6).contains(type) {
            slot = Int(type)
            tally.name(slot, typeCell)
        } else if !typeCell.isEmpty {
            slot = tally.slot(named: typeCell, known: false)
        }
        // Every LibreView row is as wide as the header (trailing commas included): a shorter one was cut off.
        if row.count > columns.count { throw CSVFileRun.Reject.wider(row.count, than: columns.count) }
        guard row.count >= columns.count else {
            throw CSVFileRun.Reject("row has \(row.count) of the header's \(columns.count) columns (truncated?)")
        }
        guard let type else { throw CSVFileRun.Reject("record type '\(typeCell.echo)' is not a number") }
        // A type LibreView does not document (0–6) holds cells nobody knows the meaning of: the row is
        // quarantined whole, never kept as an empty note with its value in no table.
        guard (0...6).contains(type) else {
            throw CSVFileRun.Reject("record type \(type) is not one LibreView documents (0–6): the row is kept here whole")
        }
        let isReading = (0...2).contains(type)
        // Entries with nothing in them (Libre 3 writes many empty type-6 rows) are read, not stored.
        if !isReading, columns.valueColumns.allSatisfy({ row.isEmpty($0) }) { return .skipped }

        let ts = row.trimmed(columns.timestamp)
        guard let local = NumericDateTime.localSeconds(ts, order: order) else {
            let layout = order == .dmy ? "DD-MM-YYYY" : "MM-DD-YYYY"
            throw CSVFileRun.Reject("unreadable timestamp '\(ts.echo)' (expected \(layout) HH:MM)")
        }
        let at = try placer.place(ParsedTimestamp(seconds: local, offset: nil), line: row.line)
        let device = columns.device.map { row.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let stamp = RowStamp(subject: subject, source: device.isEmpty ? defaultSource : devices.symbol(device),
                             at: at, provenance: Provenance(file: file, line: row.line))

        switch type {
        case 0: try reading(row, columns.historic, "Historic Glucose", metric: Metrics.glucose, flags: [], stamp, &out, emit)
        case 1:
            // A scan is a reading of its own: the same minute often holds the sensor's historic reading
            // too, and a natural key without the value must keep both (source "<device> (scan)").
            var scan = stamp
            scan.source = scanSource(for: stamp.source)
            try reading(row, columns.scan, "Scan Glucose", metric: Metrics.glucose, flags: [], scan, &out, emit)
        case 2: try reading(row, columns.strip, "Strip Glucose", metric: bloodGlucose, flags: .userEntered, stamp, &out, emit)
        case 4: try insulin(row, stamp, &out, emit)
        case 5: try food(row, stamp, &out, emit)
        case 3 where columns.ketones.contains(where: { !row.isEmpty($0) }):
            // A blood ketone test (strip): the ketone cell is the reading.
            try reading(row, nil, "Ketone", metric: Metrics.ketone, flags: [], stamp, &out, emit)
        default:
            // 6 notes and time changes, 3 "unknown": kept as notes, never dropped.
            let subtype = type == 6 ? Symbol.empty : unknownType
            rowEvents.append(stamp.event(.note, subtype: subtype, note: Self.join(text(row, columns.notes), timeChange(row))))
        }
        return .stored
    }

    /// "<device> (scan)", interned once per device.
    private mutating func scanSource(for device: Symbol) -> Symbol {
        if let s = scanSources[device] { return s }
        let s = Symbol(device.text + " (scan)")
        scanSources[device] = s
        return s
    }

    private func reading(_ row: CSVRow, _ column: LibreViewColumns.Glucose?, _ name: String, metric: Symbol,
                         flags: RecordFlags, _ stamp: RowStamp, _ out: inout BatchBuilder,
                         _ emit: (RecordBatch) throws -> Void) throws {
        let g = try column.flatMap { try LibreViewValues.glucose(row.trimmed($0.index), unit: $0.unit, name) }
        var ketones: [Double] = []
        for k in columns.ketones {
            if let v = try LibreViewValues.number(row.trimmed(k), "ketone") { ketones.append(v) }
        }
        guard g != nil || !ketones.isEmpty else {
            throw CSVFileRun.Reject(column == nil ? "no \(name) column in the header" : "\(name) row without a value")
        }
        if let (value, valueFlags) = g {
            try out.add(stamp.measurement(metric, value: value, unit: CanonicalUnits.glucose, flags: flags.union(valueFlags)), emit)
        }
        for v in ketones { try out.add(stamp.measurement(Metrics.ketone, value: v, unit: mmolPerL, flags: []), emit) }
    }

    private mutating func insulin(_ row: CSVRow, _ stamp: RowStamp, _ out: inout BatchBuilder,
                         _ emit: (RecordBatch) throws -> Void) throws {
        let rapid = try number(row, columns.rapid, "Rapid-Acting Insulin")
        let long = try number(row, columns.longActing, "Long-Acting Insulin")
        // The reader's insulin calculator splits a dose into meal, correction and user change: they add
        // up to the rapid-acting dose, so they stand in for it only when it is missing.
        let parts = [("meal", try number(row, columns.mealInsulin, "Meal Insulin")),
                     ("correction", try number(row, columns.correctionInsulin, "Correction Insulin")),
                     ("user change", try number(row, columns.userChangeInsulin, "User Change Insulin"))]
            .compactMap { name, v in v.map { (name, $0) } }
        let partsNote = parts.isEmpty ? nil : parts.map { "\($0.0) \(Self.units($0.1)) U" }.joined(separator: ", ")
        let notes = text(row, columns.notes)
        var added = false
        if rapid != nil || !parts.isEmpty {
            rowEvents.append(stamp.event(.insulin, subtype: InsulinKinds.bolus, insulin: rapid ?? parts.reduce(0) { $0 + $1.1 },
                                    note: Self.join(partsNote, notes)))
            added = true
        } else if let t = text(row, columns.rapidText) {
            rowEvents.append(stamp.event(.insulin, subtype: InsulinKinds.bolus, note: Self.join(t, notes)))
            added = true
        }
        if let long {
            rowEvents.append(stamp.event(.insulin, subtype: InsulinKinds.basal, insulin: long, note: added ? nil : notes))
            added = true
        } else if let t = text(row, columns.longText) {
            rowEvents.append(stamp.event(.insulin, subtype: InsulinKinds.basal, note: Self.join(t, added ? nil : notes)))
            added = true
        }
        if !added { rowEvents.append(stamp.event(.note, note: notes)) }
    }

    private mutating func food(_ row: CSVRow, _ stamp: RowStamp, _ out: inout BatchBuilder,
                      _ emit: (RecordBatch) throws -> Void) throws {
        let grams = try number(row, columns.carbsGrams, "Carbohydrates (grams)")
        let servings = try number(row, columns.carbsServings, "Carbohydrates (servings)")
        // Servings cannot be turned into grams without the user's serving size: kept as text.
        let servingsNote = grams == nil ? servings.map { "\(Self.units($0)) servings" } : nil
        let note = Self.join(Self.join(servingsNote, text(row, columns.foodText)), text(row, columns.notes))
        rowEvents.append(stamp.event(.meal, carbs: grams, note: note))
    }

    /// The older desktop export records a clock change as `Previous Time` → `Updated Time`.
    private func timeChange(_ row: CSVRow) -> String? {
        guard let from = text(row, columns.previousTime), let to = text(row, columns.updatedTime) else { return nil }
        return "time changed from \(from) to \(to)"
    }

    private func number(_ row: CSVRow, _ column: Int?, _ what: String) throws -> Double? {
        guard let column else { return nil }
        return try LibreViewValues.number(row.trimmed(column), what)
    }

    private func text(_ row: CSVRow, _ column: Int?) -> String? {
        guard let column, !row.isEmpty(column) else { return nil }
        return row.string(column)
    }

    private static func join(_ a: String?, _ b: String?) -> String? {
        switch (a, b) {
        case let (a?, b?): return a + "; " + b
        default: return a ?? b
        }
    }

    /// `4` rather than `4.0` in notes.
    private static func units(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
