import HealthPipeCore

/// Turns one data row into records, working on the row's bytes. Every value cell is checked
/// before anything is emitted, so a rejected row leaves no partial records behind.
struct MappedRowMapper {
    let adapter: MappedAdapter
    let subject: Symbol
    let file: Symbol
    private var time: MappedTimeReader
    private var subjects = ByteSymbolCache()
    private var sources = ByteSymbolCache()
    /// `adapter.values` without the column names: trivially copyable, so the per-record loop
    /// costs no reference counting.
    private let plans: [Plan]
    private let decimal: MappedAdapter.DecimalMark
    private let filter: RowFilter?
    private let defaultSource: Symbol
    /// `MappedAdapter.emptyWords`, copied once.
    private let emptyWords: [[UInt8]]
    /// Rows of types no entry lists are unknown (`MappedAdapter.selectsRows`, computed once).
    private let selectsRows: Bool
    /// This row's values, parallel to `plans`; nil: empty cell or skipped zero.
    private var values: [Double?]
    /// Parallel to `values`: above/below-range flags of a device's HI / LO word.
    private var limitFlags: [RecordFlags]
    /// Parallel to `values`: the entry reads this row (its `when:` lists the row's type).
    private var applies: [Bool]
    /// The adapter's row types (`MappedAdapter.knownTypes`); per type, whether it is a skip type and
    /// which entries read it (`reads[type * plans.count + entry]`), computed once.
    private let types: [[UInt8]]
    private let skipType: [Bool]
    private let reads: [Bool]
    /// What became of every data row, by type (the run report's per-type counts).
    private(set) var tally: RowTally
    /// Parallel to `values`: the glucose unit of this row (a `unit_column` entry), else the entry's.
    private var rowUnit: [GlucoseUnit?]
    /// Where the cells are: set by `use(_:)` once the layout has read the header.
    private var c = ResolvedColumns(date: 0, time: nil, subject: nil, source: nil, filter: nil, values: [], maxIndex: 0)
    private(set) var hasColumns = false

    private struct Plan {
        var target: ValueMapping.Target
        var scale: Double
        var min: Double
        var max: Double
        var skipZero: Bool
        /// A report value: its fixed importance (0: read from its importance column).
        var reportValue: Bool
        var fixedImportance: Int
        var high: ValueMapping.Limit?
        var low: ValueMapping.Limit?
        var eachRow: Bool
        /// Reads the row's glucose unit from `ResolvedColumns.units` (`unit_column`).
        var unitPerRow: Bool
        var unitDefault: Bool
    }

    init(adapter: MappedAdapter, subject: Symbol, file: Symbol) {
        self.adapter = adapter
        self.subject = subject
        self.file = file
        time = MappedTimeReader(adapter.time)
        plans = adapter.values.map { v in
            var fixed = 0
            if case .fixed(let i)? = v.importance { fixed = i }
            return Plan(target: v.target, scale: v.scale, min: v.min ?? -.infinity, max: v.max ?? .infinity, skipZero: v.skipZero,
                        reportValue: v.importance != nil, fixedImportance: fixed, high: v.high, low: v.low, eachRow: v.eachRow,
                        unitPerRow: v.unitColumn != nil, unitDefault: v.unitDefault)
        }
        types = adapter.knownTypes
        skipType = types.map { adapter.skipTypes.contains($0) }
        reads = types.flatMap { t in adapter.values.map { $0.when?.contains(t) ?? true } }
        tally = RowTally(knownTypes: types.count)
        rowUnit = adapter.values.map { v in
            if case .measurement(_, _, let g) = v.target { return g }
            return nil
        }
        values = Array(repeating: nil, count: plans.count)
        limitFlags = Array(repeating: [], count: plans.count)
        applies = Array(repeating: true, count: plans.count)
        decimal = adapter.decimal
        filter = adapter.filter
        defaultSource = adapter.sourceName
        emptyWords = adapter.emptyWords
        selectsRows = adapter.selectsRows
    }

    mutating func use(_ columns: ResolvedColumns) {
        c = columns
        hasColumns = true
    }

    /// Maps the row and counts it under its type: stored when some record came of it, skipped when
    /// its type is not data or it holds no value, quarantined when it is rejected.
    // The per-row path calls only mutating or static members: a non-mutating call from here
    // would copy the whole mapper (and retain everything in it) on every row.
    mutating func map<Row: TableRow>(_ row: Row, _ placer: inout LocalTimePlacer,
                      _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        var slot = tally.untyped
        let result = Result { () throws -> RowTally.Outcome? in try mapRow(row, &slot, &placer, &out, emit) }
        try tally.account(slot, result)
    }

    /// Stored when the row gave a record, skipped when not. `slot`: the row's type (an unknown type's
    /// by its text).
    private mutating func mapRow<Row: TableRow>(_ row: Row, _ slot: inout Int, _ placer: inout LocalTimePlacer,
                                                _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome {
        if let f = c.filter, let filter, !filter.matches(row.trimmed(f)) { return .skipped }
        // Which entries read this row (`when:`); a type no entry reads is skipped when the adapter
        // lists it as not data, else it is unknown: quarantined with the reason and counted.
        if let t = c.rowType {
            let type = row.trimmed(t)
            if let i = ByteWords.index(in: types, of: type) {
                slot = i
                tally.name(i, type)
                if skipType[i] { return .skipped }
                for k in 0..<plans.count { applies[k] = reads[i * plans.count + k] }
            } else if selectsRows {
                slot = tally.slot(named: type, known: false)
                throw CSVFileRun.Reject(type.isEmpty
                    ? "the row has no type (its \(adapter.rowType!) cell is empty)"
                    : "row type '\(type.echo)' is one the \(adapter.name) adapter neither maps nor lists in skip_types")
            } else {
                for k in 0..<plans.count { applies[k] = adapter.values[k].when == nil }
            }
        }
        var date = row.trimmed(c.date)
        if date.isEmpty, let f = c.dateFallback { date = row.trimmed(f) }
        var timeCell: UnsafeRawBufferPointer? = nil
        if let t = c.time { timeCell = row.trimmed(t) }
        if date.isEmpty, timeCell?.isEmpty ?? true { throw CSVFileRun.Reject("no timestamp") }
        guard let parsed = time.parse(date: date, time: timeCell) else {
            throw CSVFileRun.Reject("timestamp '\(MappedTimeReader.describe(date: date, time: timeCell))' does not match the format '\(time.patterns.description)'")
        }
        for k in 0..<plans.count {
            limitFlags[k] = []
            guard applies[k] else { values[k] = nil; continue }
            if plans[k].eachRow { values[k] = 0; continue }
            // An optional column this file lacks.
            guard c.values[k] >= 0 else { values[k] = nil; continue }
            let cell = row.trimmed(c.values[k])
            if !emptyWords.isEmpty, ByteWords.contains(emptyWords, cell) { values[k] = nil; continue }
            if plans[k].unitPerRow, !cell.isEmpty { rowUnit[k] = try unit(row, k) }
            switch Self.check(cell, plans[k], decimal) {
            case .value(let x): values[k] = x
            case .limit(let x, let flag): values[k] = x; limitFlags[k] = flag
            case .skip: values[k] = nil
            case let failure: throw Self.reject(adapter.values[k], cell, failure)
            }
            // A duration becomes whole seconds: out of range it is refused before any record of the row.
            if case .event(_, .duration, _, _) = plans[k].target, !plans[k].eachRow, let x = values[k],
               let why = Plausibility.check(x, Plausibility.durationMinutes, adapter.values[k].label, unit: "min") {
                throw CSVFileRun.Reject(why)
            }
        }
        let at = try placer.place(parsed, line: row.line)
        let end = try spanEnd(row, timeCell, start: parsed, at: at)

        var who = subject, src = defaultSource
        if let i = c.subject { let cell = row.trimmed(i); if !cell.isEmpty { who = subjects.symbol(cell) } }
        if let i = c.source { let cell = row.trimmed(i); if !cell.isEmpty { src = sources.symbol(cell) } }
        let prov = Provenance(file: file, line: row.line)
        let note = Self.note(row, c.notes)
        // A report is checked whole before anything of the row is emitted.
        let report = adapter.makesReports ? try report(row, who: who, at: at, note: note, prov) : nil
        var emittedEvent = false, stored = false
        for k in 0..<plans.count where !plans[k].reportValue {
            guard let x = values[k] else { continue }
            stored = true
            switch plans[k].target {
            case .measurement(let metric, let unit, _):
                var flags = at.flags, v = x
                flags.formUnion(limitFlags[k])
                if let glucose = rowUnit[k] {
                    v = glucose.toMgdl(x)
                    if glucose == .mmol { flags.insert(.convertedFromMmol) }
                }
                try out.add(Measurement(subject: who, metric: metric, source: src, start: at.utc, end: end, utcOffset: at.offset,
                                        value: v, unit: unit, flags: flags, provenance: prov), emit)
            case .event(let kind, let field, let subtype, let duration):
                var e = Event(subject: who, kind: kind, subtype: subtype, source: src, start: at.utc, end: end ?? at.utc + duration,
                              utcOffset: at.offset, flags: at.flags, provenance: prov)
                switch plans[k].eachRow ? nil : field {
                case nil: e.metadata = keptValue(row, k)  // an each_row event: no amount, its from: cell kept
                case .carbs?: e.carbs = x
                case .protein?: e.protein = x
                case .fat?: e.fat = x
                case .insulin?: e.insulin = x
                case .duration?: e.end = at.utc + Int64((x * 60).rounded())
                }
                if report == nil { e.note = note }
                emittedEvent = true
                try out.add(e, emit)
            }
        }
        if let report {
            var batch = RecordBatch(measurements: report.measurements)
            batch.reports = [report]
            try emit(batch)
            return .stored
        } else if !emittedEvent, let note {
            // Free text with no event to carry it (the row is a reading, or only text) is a note.
            try out.add(Event(subject: who, kind: .note, source: src, start: at.utc, utcOffset: at.offset, note: note, flags: at.flags,
                              provenance: prov), emit)
            return .stored
        }
        return stored ? .stored : .skipped
    }

    /// Where the row's span ends (`timestamp.end_column`), in UTC seconds; nil without an end column or
    /// with an empty end cell. Read with the timestamp's formats (and its time cell); a time without an
    /// offset is in the start's offset, so the span is as long as its wall-clock times say.
    private mutating func spanEnd<Row: TableRow>(_ row: Row, _ timeCell: UnsafeRawBufferPointer?, start: ParsedTimestamp,
                                                 at: ZoneResolver.Resolved) throws -> Int64? {
        guard let e = c.end else { return nil }
        let cell = row.trimmed(e)
        if cell.isEmpty { return nil }
        guard let parsed = time.parse(date: cell, time: timeCell) else {
            throw CSVFileRun.Reject("end time '\(MappedTimeReader.describe(date: cell, time: timeCell))' does not match the format '\(time.patterns.description)'")
        }
        // An end before the start is refused by `BatchBuilder.add` (the row is rolled back whole).
        return parsed.seconds - Int64(parsed.offset ?? at.offset)
    }

    /// The glucose unit the row's `unit_column` cell names; empty: the entry's own unit, if it has one.
    private mutating func unit<Row: TableRow>(_ row: Row, _ k: Int) throws -> GlucoseUnit? {
        let cell = c.units[k] >= 0 ? row.trimmed(c.units[k]) : UnsafeRawBufferPointer(start: nil, count: 0)
        if let u = GlucoseUnitBytes.unit(cell) { return u }
        if cell.isEmpty, plans[k].unitDefault, case .measurement(_, _, let g) = plans[k].target { return g }
        let label = adapter.values[k].label
        throw CSVFileRun.Reject(cell.isEmpty ? "\(label): the row names no unit" : "\(label): unit '\(cell.echo)' is not mg/dL or mmol/L")
    }

    /// The cell of an each_row entry's `from:` column and of its `unit_column` as metadata
    /// (`{"value":"120","unit":"%"}`): a value that is no amount of the event, kept, not dropped.
    /// nil without a `from:` column or when the cell is empty or an empty word (`N/A`).
    private func keptValue<Row: TableRow>(_ row: Row, _ k: Int) -> String? {
        let i = c.values[k]
        guard i >= 0 else { return nil }
        let cell = row.trimmed(i)
        if cell.isEmpty || (!emptyWords.isEmpty && ByteWords.contains(emptyWords, cell)) { return nil }
        var w = JSONWriter(capacity: 48)
        w.beginObject()
        w.key("value"); w.string(cell.text)
        if c.units[k] >= 0, !row.isEmpty(c.units[k]) { w.key("unit"); w.string(row.trimmed(c.units[k]).text) }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The row's free-text cells that are not empty, joined with " — "; nil when all are empty.
    private static func note<Row: TableRow>(_ row: Row, _ columns: [Int]) -> String? {
        var parts: [String] = []
        for i in columns where i >= 0 {
            let cell = row.trimmed(i)
            if !cell.isEmpty { parts.append(cell.text) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }

    /// The row's report values (canonical units, importance 1–5, at least two); nil when it has none.
    private mutating func report<Row: TableRow>(_ row: Row, who: Symbol, at: ZoneResolver.Resolved, note: String?, _ prov: Provenance) throws -> HealthReport? {
        var draft = ReportDraft(id: nil, subject: who, start: at.utc, utcOffset: at.offset, note: note)
        for k in 0..<plans.count where plans[k].reportValue {
            guard let x = values[k], case .measurement(let metric, let unit, let glucose) = plans[k].target else { continue }
            var importance = plans[k].fixedImportance
            if importance == 0, let i = c.importance[k] {
                let cell = row.trimmed(i)
                guard let v = MappedNumbers.double(cell, decimal), let whole = Int(exactly: v) else {
                    throw CSVFileRun.Reject("\(adapter.values[k].label): importance '\(cell.text)' is not a whole number 1–5")
                }
                importance = whole
            }
            // Read as written: the health-value catalog converts to the canonical unit (mmol/L glucose too).
            let written = glucose.map { $0 == .mmol ? $0.rawValue : "mg/dL" } ?? unit.text
            switch HealthValueText.value(metric: metric.text, number: x, unit: written, importance: importance) {
            case .failure(let p): throw CSVFileRun.Reject("\(adapter.values[k].label): \(p.message)")
            case .success(let v): if let p = draft.add(v) { throw CSVFileRun.Reject(p.message) }
            }
        }
        guard !draft.values.isEmpty else { return nil }
        switch draft.report() {
        case .failure(let p): throw CSVFileRun.Reject(p.message)
        case .success(var r):
            r.provenance = prov
            return r
        }
    }

    private enum Check { case value(Double), limit(Double, RecordFlags), skip, notNumber, below(Double), above(Double) }

    /// The cell's value × scale; skip when empty or a skipped zero; a failure when it is not a
    /// number or lies outside the adapter's valid range (e.g. Nightscout's sgv error codes).
    @inline(__always)
    private static func check(_ cell: UnsafeRawBufferPointer, _ p: Plan, _ decimal: MappedAdapter.DecimalMark) -> Check {
        if cell.isEmpty { return .skip }
        guard let x = MappedNumbers.double(cell, decimal) else {
            if let h = p.high, h.matches(cell) { return .limit(h.value * p.scale, .aboveSensorRange) }
            if let l = p.low, l.matches(cell) { return .limit(l.value * p.scale, .belowSensorRange) }
            return .notNumber
        }
        if x < p.min { return .below(p.min) }
        if x > p.max { return .above(p.max) }
        if p.skipZero, x == 0 { return .skip }
        return .value(x * p.scale)
    }

    private static func reject(_ v: ValueMapping, _ cell: UnsafeRawBufferPointer, _ failure: Check) -> CSVFileRun.Reject {
        switch failure {
        case .below(let lo): return .init("\(v.label): \(cell.text) is below the valid minimum \(number(lo)) (not a reading)")
        case .above(let hi): return .init("\(v.label): \(cell.text) is above the valid maximum \(number(hi)) (not a reading)")
        default: return .init("\(v.label): '\(cell.text)' is not a number")
        }
    }

    static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }
}
