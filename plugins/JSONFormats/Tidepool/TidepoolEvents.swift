import HealthPipeCore

/// Boluses, basal segments, food, bolus-calculator carbs, activity and device events → events.
extension TidepoolMapper {
    /// bolus (normal, square, dual/square, automated) and pen `insulin` doses → insulin events `bolus`;
    /// an extended part makes the event last its `duration`.
    func bolus(_ doc: JSONDocument, _ at: Stamp, pen: Bool, _ out: inout RecordBatcher) throws {
        typealias F = TidepoolFields
        let units: Double
        if pen {
            guard let v = try amount(doc, F.doseTotal, Plausibility.insulinDose, "dose.total", unit: "U") else {
                throw JSONFileRun.Reject("insulin dose without dose.total", at: doc.path(ofSlot: F.doseTotal))
            }
            units = v
        } else {
            let normal = try amount(doc, F.normal, Plausibility.insulinDose, "normal", unit: "U")
            let extended = try amount(doc, F.extended, Plausibility.insulinDose, "extended", unit: "U")
            guard normal != nil || extended != nil else {
                throw JSONFileRun.Reject("bolus without normal or extended units", at: doc.path(ofSlot: F.normal))
            }
            units = (normal ?? 0) + (extended ?? 0)
        }
        let s = source(doc)
        out.add(Event(subject: options.subject, kind: .insulin, subtype: InsulinKinds.bolus, source: s.source, start: at.start,
                      end: try endAfter(doc, at), utcOffset: at.offset, insulin: units, provenance: at.provenance, device: s.device,
                      metadata: metadata(doc, skipping: ["normal", "extended"])))
    }

    /// A basal segment: `rate` U/h for `duration` ms. Segments follow each other without overlap, so
    /// the insulin delivered (rate × duration) counts in daily totals; a suspend delivers 0. The rate
    /// is also stored as every pump's rate is (BasalRates) over the segment's span, a scheduled segment
    /// flagged `scheduledRate` (drawn as the schedule, temp/automated/suspended ones over it).
    func basal(_ doc: JSONDocument, _ at: Stamp, _ out: inout RecordBatcher) throws {
        typealias F = TidepoolFields
        let suspend = doc.equals(F.deliveryType, "suspend")
        guard let rate = try amount(doc, F.rate, Plausibility.basalRate, "rate", unit: "U/h") ?? (suspend ? 0 : nil) else {
            throw JSONFileRun.Reject("basal without a rate", at: doc.path(ofSlot: F.rate))
        }
        let end = try endAfter(doc, at)
        let delivered = (rate * Double(end - at.start) / 3600 * 1000).rounded() / 1000
        let s = source(doc)
        out.add(Event(subject: options.subject, kind: .insulin, subtype: InsulinKinds.basal, source: s.source, start: at.start,
                      end: end, utcOffset: at.offset, insulin: delivered, provenance: at.provenance, device: s.device,
                      metadata: metadata(doc, skipping: [])))
        let scheduled = doc.equals(F.deliveryType, "scheduled")
        out.add(BasalRates.measurement(rate, subject: options.subject, source: s.source, start: at.start, end: end,
                                       utcOffset: at.offset, flags: scheduled ? .scheduledRate : [], provenance: at.provenance, device: s.device,
                                       metadata: doc.string(F.deliveryType).map(Self.deliveryTypeJSON)))
    }

    static func deliveryTypeJSON(_ type: String) -> String {
        var w = JSONWriter(capacity: 48)
        w.beginObject(); w.key("deliveryType"); w.string(type); w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// food (nutrition.carbohydrate.net g, fat, protein) and wizard (carbInput) → meal events; a
    /// wizard without carbs is skipped.
    func meal(_ doc: JSONDocument, _ at: Stamp, wizard: Bool, _ out: inout RecordBatcher) throws -> RowTally.Outcome {
        typealias F = TidepoolFields
        let carbs = try amount(doc, wizard ? F.carbInput : F.carbsNet, Plausibility.mealGrams, wizard ? "carbInput" : "carbohydrate", unit: "g")
        if !wizard, let u = doc.string(F.carbsUnits), u != "grams" {
            throw JSONFileRun.Reject("carbohydrate units '\(u)' (grams expected)", at: doc.path(ofSlot: F.carbsUnits))
        }
        guard let carbs, carbs > 0 else {
            if wizard { return .skipped }  // a correction-only calculation: its bolus is its own datum
            throw JSONFileRun.Reject("food without nutrition.carbohydrate.net", at: doc.path(ofSlot: F.carbsNet))
        }
        let s = source(doc)
        out.add(Event(subject: options.subject, kind: .meal, source: s.source, start: at.start, utcOffset: at.offset, carbs: carbs,
                      protein: wizard ? nil : try amount(doc, F.protein, Plausibility.mealGrams, "protein", unit: "g"),
                      fat: wizard ? nil : try amount(doc, F.fat, Plausibility.mealGrams, "fat", unit: "g"),
                      note: wizard ? nil : doc.string(F.name), provenance: at.provenance, device: s.device,
                      metadata: metadata(doc, skipping: wizard ? ["carbInput"] : ["name"])))
        return .stored
    }

    /// physicalActivity → an exercise event lasting `duration` {value, units}, intensity low/medium/high → light/medium/heavy.
    func activity(_ doc: JSONDocument, _ at: Stamp, _ out: inout RecordBatcher) throws {
        typealias F = TidepoolFields
        var end = at.start
        if let v = try amount(doc, F.durationValue, 0...1_209_600, "duration", unit: doc.string(F.durationUnits) ?? "s") {
            let scale: Double
            switch doc.string(F.durationUnits) ?? "seconds" {
            case "hours": scale = 3600
            case "minutes": scale = 60
            case "seconds": scale = 1
            case let u: throw JSONFileRun.Reject("unknown duration units '\(u)'", at: doc.path(ofSlot: F.durationUnits))
            }
            end = at.start + Int64((v * scale).rounded())
        }
        let intensity: Symbol
        switch doc.string(F.intensity) {
        case "low": intensity = Symbol("light")
        case "medium": intensity = Symbol("medium")
        case "high": intensity = Symbol("heavy")
        default: intensity = .empty
        }
        let name = doc.string(F.activityType) ?? doc.string(F.name) ?? "exercise"
        let s = source(doc)
        out.add(Event(subject: options.subject, kind: .exercise, subtype: Symbol(HealthNames.snake(name)), source: s.source,
                      start: at.start, end: end, utcOffset: at.offset, intensity: intensity, note: doc.string(F.name),
                      provenance: at.provenance, device: s.device, metadata: metadata(doc, skipping: ["name"])))
    }

    /// deviceEvent (alarm, calibration, prime, reservoirChange, status, timeChange…) → device events named after the subType.
    func deviceEvent(_ doc: JSONDocument, _ at: Stamp, _ out: inout RecordBatcher) throws {
        let sub = doc.string(TidepoolFields.subType) ?? "device_event"
        let s = source(doc)
        out.add(Event(subject: options.subject, kind: .device, subtype: Symbol(HealthNames.snake(sub)), source: s.source,
                      start: at.start, end: try endAfter(doc, at), utcOffset: at.offset, provenance: at.provenance,
                      device: s.device, metadata: metadata(doc, skipping: [])))
    }
}
