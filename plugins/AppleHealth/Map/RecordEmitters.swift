import HealthPipeCore

/// Record and Correlation elements → measurements, insulin and meal events.
extension ExportHandler {
    /// Checks shared by every sample element; nil when it is left out (`left` is then `.skipped`) or
    /// rejected (`left` nil: counted where it was quarantined).
    private func placed(else left: inout RowTally.Outcome?) -> (start: HealthDate.Parsed, end: HealthDate.Parsed, offset: Int32)? {
        left = .skipped
        guard draft.sourceIncluded else { filtered += 1; return nil }
        left = nil
        guard let start = draft.start, !draft.badDate else {
            reject("missing or unreadable startDate/endDate (expected yyyy-MM-dd HH:mm:ss ±HHMM)")
            return nil
        }
        let end = draft.end ?? start
        if end.utc < start.utc {
            reject("endDate is before startDate (a sample cannot last a negative time)")
            return nil
        }
        let offset = offset(at: start)
        left = .skipped
        guard dayIncluded(start.utc + Int64(offset)) else { filtered += 1; return nil }
        return (start, end, offset)
    }

    /// Stored, or skipped when the options leave it out; nil when quarantined (counted there).
    func finishRecord() -> RowTally.Outcome? {
        guard let type = draft.type else { reject("Record without a type"); return nil }
        guard type.included else { filtered += 1; return .skipped }
        var left: RowTally.Outcome?
        guard let (start, end, offset) = placed(else: &left) else { return left }
        let prov = Provenance(file: file, line: draft.line)
        let flags: RecordFlags = draft.userEntered ? .userEntered : []
        let subject = options.subject

        if type.kind == .insulin {
            guard let units = draft.number else { reject("insulin delivery without a numeric value"); return nil }
            if let problem = Plausibility.eventProblem(insulin: units, carbs: nil) { reject(problem); return nil }
            // HKInsulinDeliveryReason: 1 basal, 2 bolus.
            let subtype = draft.insulinReason == 1 ? InsulinKinds.basal : draft.insulinReason == 2 ? InsulinKinds.bolus : .empty
            add(Event(subject: subject, kind: .insulin, subtype: subtype, source: draft.source, start: start.utc, end: end.utc,
                      utcOffset: offset, insulin: units, flags: flags, provenance: prov, device: deviceSymbol, metadata: metadataJSON()))
            // A basal delivery over a span (Loop, Trio write each dose so) also gives its rate, stored as
            // every pump's rate is (BasalRates) so the day view draws it as a step; an instant has none.
            if subtype == InsulinKinds.basal, let rate = BasalRates.rate(units: units, start: start.utc, end: end.utc),
               Plausibility.problem(metric: BasalRates.metric, value: rate, unit: BasalRates.unit) == nil {
                add(BasalRates.measurement(rate, subject: subject, source: draft.source, start: start.utc, end: end.utc, utcOffset: offset,
                                           flags: flags, provenance: prov, device: deviceSymbol))
            }
            return .stored
        }
        guard type.kind != .category, let raw = draft.number else {
            // Category samples (sleep stages, mindful sessions…): the value names the state, the
            // measurement is the time spent in it. A quantity needs a number: "abc" or "NaN" is
            // refused, never turned into a metric named after it.
            if type.kind != .category, draft.text == nil || type.isQuantity {
                reject(draft.text.map { "\(type.identifier) value '\(EchoText.cap($0))' is not a number" }
                       ?? "\(type.identifier) record without a value")
                return nil
            }
            add(HealthPipeCore.Measurement(subject: subject, metric: type.categoryMetric(draft.text), source: draft.source,
                                           start: start.utc, end: end.utc, utcOffset: offset,
                                           value: Double(end.utc - start.utc) / 60, unit: CanonicalUnits.minutes,
                                           flags: flags, provenance: prov, device: deviceSymbol, metadata: metadataJSON()))
            return .stored
        }
        let conversion = draft.unit ?? UnitConversion.unitless
        let (value, converted) = conversion.convert(raw)
        // Checked in the canonical unit: BloodGlucose in kg or 0 mg/dL is not a reading.
        if let problem = type.plausibility.map({ $0.problem(value, unit: conversion.unit) })
            ?? (value.isFinite ? nil : "\(type.name) value is not a number") {
            reject("\(type.identifier) value \(Plausibility.number(raw)) \(conversion.appleUnit): \(problem)")
            return nil
        }
        add(HealthPipeCore.Measurement(subject: subject, metric: type.metric, source: draft.source, start: start.utc,
                                       end: end.utc, utcOffset: offset, value: value, unit: conversion.unit,
                                       flags: flags.union(converted), provenance: prov, device: deviceSymbol,
                                       metadata: side.hasBeats(line: draft.line) ? metadataJSON(extra: beatsJSON(start)) : metadataJSON()))
        if type.kind == .dietaryCarbs {
            ledger.add(.init(start: start.utc, end: end.utc, carbs: value, line: draft.line, source: draft.source,
                             offset: offset, device: deviceSymbol, flags: flags))
        }
        return .stored
    }

    /// A Record inside a Correlation: its values feed the correlation, it is not stored again.
    func correlationMember(_ a: Attributes) {
        correlationMembers += 1
        correlation.members += 1
        var type: HealthType?
        var value: Double?
        var unitIndex = -1
        for i in 0..<a.count {
            let n = a.name(i)
            if named(n, "type") {
                type = types.value(a.value(i), a.length(i)) { HealthType(identifier: $0, filter: options.types) }
            } else if named(n, "value") {
                value = a.number(i)
            } else if named(n, "unit") {
                unitIndex = i
            }
        }
        guard let type, let raw = value else { return }
        var v = raw
        if unitIndex >= 0 {
            v = type.units.value(a.value(unitIndex), a.length(unitIndex)) { UnitConversion(appleUnit: $0, metric: type.name) }
                .convert(raw).value
        }
        switch type.short {
        case "DietaryCarbohydrates": correlation.carbs = v
        case "DietaryProtein": correlation.protein = v
        case "DietaryFatTotal": correlation.fat = v
        case "DietaryEnergyConsumed": correlation.energy = v
        case "BloodPressureSystolic": correlation.systolic = v
        case "BloodPressureDiastolic": correlation.diastolic = v
        default: break
        }
    }

    /// A Food correlation is one meal (carbs, protein, fat) and claims the pending carbohydrate
    /// record it repeats, so the meal is counted once. Blood-pressure correlations add no rows (skipped):
    /// their systolic and diastolic members are already stored from the top level, paired by source and
    /// time; so is any other HealthKit correlation. One of no HealthKit type is quarantined whole.
    /// nil when quarantined (counted there).
    func finishCorrelation() -> RowTally.Outcome? {
        guard let type = draft.type else { reject("Correlation without a type"); return nil }
        guard type.short == "Food" else {
            guard ElementTypes.isHealthKit(type.identifier) else {
                reject("Correlation of type '\(EchoText.cap(type.identifier))', which is not a HealthKit correlation type")
                return nil
            }
            return .skipped
        }
        guard options.types.includes(identifier: type.identifier, name: "meal") || options.types.includes(identifier: type.identifier, name: type.name)
        else { filtered += 1; return .skipped }
        var left: RowTally.Outcome?
        guard let (start, end, offset) = placed(else: &left) else { return left }
        if let c = correlation.carbs {
            ledger.claim(.init(source: draft.source, start: start.utc, carbsBits: c.bitPattern))
        }
        let food = draft.foodType
        let energy = correlation.energy
        let metadata = metadataJSON(extra: energy.map { e in { (w: inout JSONWriter) in w.key("energy_kcal"); w.double(e) } })
        add(Event(subject: options.subject, kind: .meal, source: draft.source, start: start.utc, end: end.utc,
                  utcOffset: offset, carbs: correlation.carbs, protein: correlation.protein, fat: correlation.fat,
                  note: food, flags: draft.userEntered ? .userEntered : [], provenance: Provenance(file: file, line: draft.line),
                  device: deviceSymbol, metadata: metadata))
        return .stored
    }
}

extension UnitConversion {
    static let unitless = UnitConversion(appleUnit: "", metric: "")
}
