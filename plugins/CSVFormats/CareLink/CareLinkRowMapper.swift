import HealthPipeCore

/// Turns one CareLink data row into records. A row may hold several things (a sensor reading and
/// its ISIG, a bolus and its carbs), so each mapped column is read; every cell is checked before
/// anything is added, so a rejected row never lands half-way.
struct CareLinkRowMapper {
    var columns: CareLinkColumns
    /// The device of the current section (from its marker line).
    var source: Symbol
    /// In a 7xxG "Aggregated Auto Insulin Data" section each row is a day's SmartGuard auto insulin.
    var autoInsulinSection = false
    let values: CareLinkValues
    let subject: Symbol
    let file: Symbol
    var placer: LocalTimePlacer
    private var dedupe = CareLinkDeduper()
    private var texts = ByteSymbolCache()
    private var bolusTypes = ByteSymbolCache()

    private let bloodGlucose = Symbol("blood_glucose")
    private let nanoamps = Symbol("nA")
    private let rewind = Symbol("rewind")
    private let tempBasal = Symbol("temp_basal")
    private let autoInsulinNote = "SmartGuard auto insulin, daily total"

    init(columns: CareLinkColumns, source: Symbol, decimalComma: Bool, options: CSVCommonOptions, format: String) {
        self.columns = columns
        self.source = source
        values = CareLinkValues(decimalComma: decimalComma)
        subject = options.subject
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: format)
    }

    /// What became of every data row. CareLink has no type column (a row holds a reading, a dose and
    /// an alarm side by side), so its rows count under one type, `rowType`: stored when some record
    /// came of them, skipped when no cell this reader maps holds anything (BWZ settings, empty sensor
    /// rows, a repeated bolus), quarantined when rejected.
    private(set) var tally = RowTally(types: [Self.rowType])
    static let rowType = "CareLink row"
    private static let rowSlot = 0

    mutating func map(_ row: CSVRow, into out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let before = out.measurements + out.events
        let result = Result { () throws -> RowTally.Outcome? in
            try mapRow(row, into: &out, emit)
            return out.measurements + out.events > before ? .stored : .skipped
        }
        try tally.account(Self.rowSlot, result)
    }

    private mutating func mapRow(_ row: CSVRow, into out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        let c = columns
        func cell(_ i: Int?) -> UnsafeRawBufferPointer {
            i.map { row.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        }
        // Rows with nothing this adapter maps (BWZ settings, temp basal programming, empty sensor rows)
        // are read, not stored.
        // The older export has no Basal Rate column: a scheduled rate change is a `BasalProfileStart`
        // record whose Raw-Values hold `RATE=0.75`.
        let profileRate = try scheduledRate(row)
        if profileRate == nil, c.used.allSatisfy({ row.isEmpty($0) }) { return }
        // Even an empty extra cell counts: a decimal comma in a `,` file shifts every later value.
        if row.count > c.count { throw CSVFileRun.Reject.wider(row.count, than: c.count) }

        let sg = try c.sensorGlucose.flatMap { try values.glucose(cell($0.index), $0, "Sensor Glucose") }
        let bg = try c.bgReading.flatMap { try values.glucose(cell($0.index), $0, "BG Reading") }
        let cal = try c.calibration.flatMap { try values.glucose(cell($0.index), $0, "Sensor Calibration BG") }
        let isig = try values.number(cell(c.isig), "ISIG Value")
        let basal = try values.number(cell(c.basalRate), "Basal Rate") ?? profileRate
        let delivered = try values.number(cell(c.bolusDelivered), "Bolus Volume Delivered")
        let carbs = try values.number(cell(c.carbInput), "BWZ Carb Input")
        let tempBasal = try values.number(cell(c.tempBasalAmount), "Temp Basal Amount")

        let date = cell(c.date), time = cell(c.time)
        guard let local = CareLinkDateTime.localSeconds(date: date, time: time) else {
            throw CSVFileRun.Reject("unreadable date/time '\(date.echo) \(time.echo)'")
        }
        let at = try placer.place(ParsedTimestamp(seconds: local, offset: nil), line: row.line)
        let stamp = RowStamp(subject: subject, source: source, at: at, provenance: Provenance(file: file, line: row.line))
        if autoInsulinSection {
            // A day's auto insulin (written as a `Normal` bolus at 00:00:00): basal insulin over that local day.
            guard let delivered, delivered > 0 else { return }
            let end = try placer.place(ParsedTimestamp(seconds: local + 86_400, offset: nil), line: row.line)
            try add(stamp.event(.insulin, subtype: InsulinKinds.basal, end: end.utc, insulin: delivered, note: autoInsulinNote),
                    &out, emit)
            return
        }

        let mgdl = CanonicalUnits.glucose
        if let (v, f) = sg { try out.add(stamp.measurement(Metrics.glucose, value: v, unit: mgdl, flags: f), emit) }
        if let (v, f) = cal {
            try out.add(stamp.measurement(bloodGlucose, value: v, unit: mgdl, flags: f.union([.userEntered, .calibration])), emit)
        }
        // A meter reading used for calibration shows in both columns: keep it once, as the calibration;
        // a 7xxG's copy of a reading sent to the sensor (`BG_SENT_FOR_CALIB`) is not a reading of its own.
        let repeated = c.bgSource.map { i in CareLinkHeaderWords.bgSourceRepeats.contains { ByteText.equalsIgnoringCase(row.trimmed(i), $0) } }
        if let (v, f) = bg, cal?.0 != v, repeated != true {
            try out.add(stamp.measurement(bloodGlucose, value: v, unit: mgdl, flags: f.union(.userEntered)), emit)
        }
        if let isig { try out.add(stamp.measurement(Metrics.sensorSignal, value: isig, unit: nanoamps, flags: []), emit) }
        if let basal { try out.add(stamp.basalRate(basal), emit) }
        if let tempBasal { try addTempBasal(tempBasal, row, stamp, &out, emit) }

        if let delivered, keepBolus(row, delivered: delivered, local: local) {
            let duration = ByteText.duration(cell(c.bolusDuration)).flatMap { $0 > 0 ? $0 : nil }
            let type = cell(c.bolusType)
            try add(stamp.event(.insulin, subtype: InsulinKinds.bolus, end: duration.map { at.utc + $0 }, insulin: delivered,
                                note: type.isEmpty ? nil : type.text), &out, emit)
        }
        if let carbs, carbs > 0 { try add(stamp.event(.meal, carbs: carbs), &out, emit) }
        let marker = cell(c.eventMarker)
        if !marker.isEmpty, !CareLinkHeaderWords.dayBoundaryMarkers.contains(where: { ByteText.equalsIgnoringCase(marker, $0) }) {
            try add(markerEvent(marker, stamp), &out, emit)
        }
        let alarm = cell(c.alarm)
        if !alarm.isEmpty { try add(stamp.event(.alert, subtype: texts.symbol(alarm)), &out, emit) }
        let suspended = cell(c.suspend)
        if !suspended.isEmpty { try add(stamp.event(.device, subtype: texts.symbol(suspended)), &out, emit) }
        if !cell(c.rewind).isEmpty { try add(stamp.event(.device, subtype: rewind), &out, emit) }
    }

    /// A temp basal as Nightscout's `Temp Basal` lands (docs/formats.md): a rate (`Rate`/`Absolute`, U/h)
    /// with a duration is a `basal_rate` measurement over its span (BasalRates); a percentage of the
    /// scheduled rate, or a rate without a duration, is an insulin event `temp_basal` without an amount,
    /// the rate or percent in its metadata, never guessed into U/h.
    private mutating func addTempBasal(_ amount: Double, _ row: CSVRow, _ stamp: RowStamp, _ out: inout BatchBuilder,
                              _ emit: (RecordBatch) throws -> Void) throws {
        let type = columns.tempBasalType.map { row.trimmed($0) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let duration = columns.tempBasalDuration.flatMap { ByteText.duration(row.trimmed($0)) }.flatMap { $0 > 0 ? $0 : nil }
        let percent = ByteText.equalsIgnoringCase(type, "Percent")
        let name = type.text  // a code (`Rate`, `Percent`, `Absolute`): kept only when it needs no JSON escaping
        let typeJSON = !name.isEmpty && name.allSatisfy { $0.isLetter || $0 == "_" || $0 == " " } ? "\"type\":\"" + name + "\"" : nil
        if !percent, let duration {
            if let why = Plausibility.check(amount, Plausibility.basalRate, "Temp Basal Amount", unit: "U/h") { throw CSVFileRun.Reject(why) }
            try out.add(stamp.basalRate(amount, end: stamp.at.utc + duration, metadata: typeJSON.map { "{" + $0 + "}" }), emit)
            return
        }
        var e = stamp.event(.insulin, subtype: tempBasal, end: duration.map { stamp.at.utc + $0 })
        e.metadata = "{" + (percent ? "\"percent\":" : "\"rate_u_h\":") + amount.formattedForJSON + (typeJSON.map { "," + $0 } ?? "") + "}"
        try add(e, &out, emit)
    }

    /// The rate of a `BasalProfileStart` record (`PATTERN_NAME=standard, PROFILE_INDEX=0, RATE=0.75, …`).
    private func scheduledRate(_ row: CSVRow) throws -> Double? {
        guard let t = columns.rawType, let v = columns.rawValues,
              ByteText.equalsIgnoringCase(row.trimmed(t), "BasalProfileStart") else { return nil }
        let text = row.trimmed(v).text
        guard let range = text.range(of: "RATE=") else { throw CSVFileRun.Reject("BasalProfileStart without RATE= in '\(text)'") }
        // A `;` export may write the rate with a decimal comma (`RATE=0,85, START_TIME=…`): a comma
        // followed by a digit is the decimal separator, one followed by a space ends the value.
        let rest = Array(text[range.upperBound...])
        var end = 0
        while end < rest.count, rest[end].isNumber
                || ((rest[end] == "." || rest[end] == ",") && end + 1 < rest.count && rest[end + 1].isNumber) { end += 1 }
        let number = String(rest[..<end]).replacingOccurrences(of: ",", with: ".")
        guard let rate = Double(number), rate >= 0 else { throw CSVFileRun.Reject("BasalProfileStart rate '\(number)' is not a number") }
        return rate
    }

    /// The programmed half of a bolus pair has no (or a zero) delivered volume; of the rest, the
    /// first row per Bolus Number and type is kept.
    private mutating func keepBolus(_ row: CSVRow, delivered: Double, local: Int64) -> Bool {
        if delivered == 0, let s = columns.bolusSelected, let selected = values.parse(row.trimmed(s)), selected > 0 {
            return false
        }
        guard let n = columns.bolusNumber, let number = values.parse(row.trimmed(n)) else { return true }
        let type = columns.bolusType.map { bolusTypes.symbol(row.trimmed($0)) } ?? .empty
        return dedupe.isNewBolus(number: Int64(number), type: type, local: local)
    }

    /// `Insulin: 27,00` → insulin; `Meal: 40,00grams` / `Carbs: …` → meal; anything else → a note
    /// named by its label.
    private mutating func markerEvent(_ marker: UnsafeRawBufferPointer, _ stamp: RowStamp) -> Event {
        let label = CareLinkValues.markerLabel(marker)
        let amount = values.markerAmount(marker)
        // Without a readable amount the marker's text is kept so nothing is lost.
        let note = amount == nil ? marker.text : nil
        if ByteText.equalsIgnoringCase(label, "Insulin") {
            return stamp.event(.insulin, insulin: amount, note: note)
        }
        if ["Meal", "Carbs", "Carbohydrates", "Food"].contains(where: { ByteText.equalsIgnoringCase(label, $0) }) {
            return stamp.event(.meal, carbs: amount, note: note)
        }
        // An illness or stress marker has no end: it lasts `daily`'s episode_length (EpisodeSpan).
        for (word, kind) in [("Illness", EpisodeKinds.illness), ("Sick", EpisodeKinds.illness), ("Stress", EpisodeKinds.stress)]
            where ByteText.equalsIgnoringCase(label, word) {
            return stamp.event(.episode, subtype: kind, note: marker.text)
        }
        return stamp.event(.note, subtype: texts.symbol(label), note: marker.text)
    }

    private mutating func add(_ e: Event, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        if dedupe.isNew(e) { try out.add(e, emit) }
    }
}
