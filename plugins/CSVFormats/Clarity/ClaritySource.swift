import HealthPipeCore

/// Dexcom Clarity CSV export: 12- or 14-column layouts, mg/dL or mmol/L, BOM and double-encoded
/// BOM, any number of metadata rows (data rows are the ones with a timestamp), `T` or space
/// timestamps with one- or two-digit hours, literal `Low`/`High` readings, and the event rows.
final class ClaritySource: Source, InputDescribing {
    static let format = "dexcom-clarity"
    /// Dexcom G6/G7 report "Low" below 40 mg/dL and "High" above 400 mg/dL: such readings are
    /// kept at the limit with a flag, never dropped and never mistaken for a real 40 or 400.
    static let sensorLow = 40.0, sensorHigh = 400.0

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let input = try CSVInput(path: options.path)
        let delimiter = input.head.lines(1).first.map(HeaderText.sniffDelimiter) ?? UInt8(ascii: ",")
        let file = Symbol(options.path)
        var columns: ClarityColumns? = nil
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: options.path, format: "Dexcom Clarity")
        let pattern = try! TimestampPattern("%Y-%m-%dT%H:%M:%S")
        let subject = options.subject
        var sources = ByteSymbolCache()
        var subtypes = ByteSymbolCache()
        let dexcom = Symbol("Dexcom"), glucose = Metrics.glucose, mgdl = CanonicalUnits.glucose
        let bloodGlucose = Symbol("blood_glucose")
        var defaultSource = dexcom

        try CSVFileRun(input: input, format: Self.format, context: context).run(delimiter: delimiter, emit: emit) { row, out in
            guard let cols = columns else {
                if row.isBlank { return }
                guard let c = ClarityColumns(header: row.strings()) else {
                    throw InputError(file: options.path, line: row.line,
                                     reason: "not a Dexcom Clarity export: the header has no Timestamp/Event Type/Glucose Value columns")
                }
                columns = c
                return
            }
            if row.count > cols.count { throw CSVFileRun.Reject.wider(row.count, than: cols.count) }
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
                if ByteText.equals(type, "Device"), !row.isEmpty(cols.sourceDevice) {
                    defaultSource = sources.symbol(row.trimmed(cols.sourceDevice))
                }
                return
            }
            guard let parsed = pattern.parse(ts) else { throw CSVFileRun.Reject("unreadable timestamp '\(ts.echo)'") }
            let at = try placer.place(parsed, line: row.line)
            let src = row.isEmpty(cols.sourceDevice) ? defaultSource : sources.symbol(row.trimmed(cols.sourceDevice))
            let prov = Provenance(file: file, line: row.line)

            if ByteText.equals(type, "EGV") || ByteText.equals(type, "Calibration") || ByteText.equals(type, "Fasting Glucose") {
                let cell = row.trimmed(cols.glucose)
                var flags = at.flags
                let value: Double
                if let v = ByteText.double(cell, decimalComma: false) {
                    let (mgdl, converted) = try GlucoseValue.canonical(v, unit: cols.glucoseUnit, cell: cell, what: "glucose value")
                    value = mgdl
                    flags.formUnion(converted)
                } else if ByteText.equalsIgnoringCase(cell, "Low") {
                    value = Self.sensorLow
                    flags.insert(.belowSensorRange)
                } else if ByteText.equalsIgnoringCase(cell, "High") {
                    value = Self.sensorHigh
                    flags.insert(.aboveSensorRange)
                } else {
                    throw CSVFileRun.Reject(cell.isEmpty ? "\(type.echo) row without a glucose value"
                                                         : "glucose value '\(cell.echo)' is not a number")
                }
                let isEGV = ByteText.equals(type, "EGV")
                if !isEGV { flags.insert(ByteText.equals(type, "Calibration") ? [.calibration, .userEntered] : .userEntered) }
                try out.add(Measurement(subject: subject, metric: isEGV ? glucose : bloodGlucose, source: src, start: at.utc,
                                        utcOffset: at.offset, value: value, unit: mgdl, flags: flags, provenance: prov), emit)
                return
            }

            var event = Event(subject: subject, kind: .note, source: src, start: at.utc, utcOffset: at.offset,
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
}
