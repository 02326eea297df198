import HealthPipeCore

/// Treatments → events: boluses (Bolus, SMB, Meal/Correction/Snack/Combo Bolus) as insulin events
/// with subtype `bolus`, carbs as meal events, Temp Basal as an insulin event `temp_basal` with its
/// rate and duration (no amount: a later temp basal supersedes it, so rate × duration is not what
/// was delivered), site/sensor/insulin changes as device events, notes and everything else as note
/// events named after the eventType. BG Check readings become blood_glucose measurements. Every
/// treatment keeps its own fields (eventType, _id, enteredBy, nested uploader objects) as metadata.
extension NightscoutMapper {
    /// Fields stored in columns, and `_id`/`identifier`: uploaders post one treatment several times
    /// under new ids (iAPS: 462 Sensor Starts at 19 instants), which must land as one unchanged row;
    /// nor are a Nightscout server's `srvCreated`/`srvModified` the treatment's. The rest of a
    /// treatment goes into its metadata.
    static let treatmentColumns: Set<String> = ["_id", "identifier", "srvCreated", "srvModified", "created_at", "utcOffset", "insulin",
                                                "carbs", "protein", "fat", "notes", "enteredBy"]

    func treatment(_ doc: JSONDocument, _ out: inout RecordBatcher) throws {
        typealias F = NightscoutFields
        guard let at = time(doc, F.createdAt) ?? time(doc, F.timestamp) ?? time(doc, F.mills) ?? time(doc, F.date) else {
            throw JSONFileRun.Reject(doc.present(F.createdAt) ? "unreadable created_at" : "treatment without created_at",
                                     at: doc.path(ofSlot: F.createdAt))
        }
        let eventType = doc.string(F.eventType) ?? ""
        let type = eventType.lowercased()
        let source = enteredBy(doc)
        let utcOffset = offset(doc, utc: at.utc, written: at.offset)
        let note = doc.string(F.notes).flatMap { $0.isEmpty ? nil : $0 }
        let metadata = JSONCompact.members(of: doc, skipping: Self.treatmentColumns)
        var base = Event(subject: options.subject, kind: .note, source: source, start: at.utc, utcOffset: utcOffset,
                         note: note, provenance: provenance(doc), metadata: metadata)
        let minutes = try amount(doc, F.duration, Plausibility.durationMinutes, "duration", unit: "min")
        if let minutes { base.end = at.utc + Int64((minutes * 60).rounded()) }

        if type == "bg check" || (doc.has(F.glucose) && type.isEmpty) {
            try bloodGlucoseCheck(doc, base, &out)
            return
        }
        let insulin = try amount(doc, F.insulin, Plausibility.insulinDose, "insulin", unit: "U")
            ?? (type == "combo bolus" ? try amount(doc, F.enteredInsulin, Plausibility.insulinDose, "enteredinsulin", unit: "U") : nil)
        let carbs = try amount(doc, F.carbs, Plausibility.mealGrams, "carbs", unit: "g")

        switch type {
        case "temp basal", "suspend pump":
            try tempBasal(doc, base, suspend: type == "suspend pump", &out)
        case _ where Self.deviceEvents.contains(type):
            var e = base
            e.kind = .device
            e.subtype = Symbol(HealthNames.snake(eventType))
            out.add(e)
        case "exercise":
            var e = base
            e.kind = .exercise
            e.subtype = Symbol("exercise")
            out.add(e)
        default:
            var wrote = false
            if let insulin, insulin > 0 {
                out.add(base.bolus(units: insulin))
                wrote = true
            }
            if let carbs, carbs > 0 {
                var e = base.meal(carbs: carbs)
                e.end = at.utc
                e.protein = try amount(doc, F.protein, Plausibility.mealGrams, "protein", unit: "g")
                e.fat = try amount(doc, F.fat, Plausibility.mealGrams, "fat", unit: "g")
                out.add(e)
                wrote = true
            }
            if !wrote {
                if Self.doseTypes.contains(type) {
                    throw JSONFileRun.Reject("\(eventType) without an insulin or carbs amount", at: doc.path(ofSlot: F.insulin))
                }
                // Notes, announcements, temporary targets, profile switches, unknown types: kept, never dropped.
                var e = base
                e.subtype = Symbol(eventType.isEmpty ? "note" : HealthNames.snake(eventType))
                if e.note == nil { e.note = doc.string(F.reason) ?? doc.string(F.profile) }
                out.add(e)
            }
        }
    }

    static let tempBasal = Symbol("temp_basal")
    static let deviceEvents: Set<String> = ["site change", "insulin change", "sensor start", "sensor change", "sensor stop",
                                            "pump battery change", "cannula change", "pod change", "reservoir change", "resume pump"]
    /// Event types that exist to record a dose: one without an amount is a bad row.
    static let doseTypes: Set<String> = ["bolus", "smb", "meal bolus", "correction bolus", "snack bolus", "combo bolus",
                                         "carb correction"]

    /// A BG Check: `glucose` in the treatment's `units` (`mg/dl` or `mmol`). Without `units` (AndroidAPS
    /// writes none) the value says it: no meter reads 35 mg/dL or less as a number worth entering, and
    /// no one has 35 mmol/L or more, so ≤ 35 is mmol/L and above is mg/dL.
    private func bloodGlucoseCheck(_ doc: JSONDocument, _ base: Event, _ out: inout RecordBatcher) throws {
        typealias F = NightscoutFields
        guard let v = doc.number(F.glucose) else {
            throw JSONFileRun.Reject("BG Check without a glucose value", at: doc.path(ofSlot: F.glucose))
        }
        let unit: GlucoseUnit
        if let unitText = doc.string(F.units), !unitText.isEmpty {
            guard let u = GlucoseUnit(spelling: unitText) else {
                throw JSONFileRun.Reject("unknown glucose unit '\(unitText)'", at: doc.path(ofSlot: F.units))
            }
            unit = u
        } else {
            unit = Self.inferredGlucoseUnit(v)
        }
        let mgdl = unit.toMgdl(v)
        if let why = Plausibility.check(mgdl, Plausibility.glucoseMgdl, "glucose", unit: "mg/dL") {
            throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.glucose))
        }
        var flags: RecordFlags = .userEntered
        if unit == .mmol { flags.insert(.convertedFromMmol) }
        out.add(Measurement(subject: base.subject, metric: bloodGlucose, source: base.source, start: base.start,
                            utcOffset: base.utcOffset, value: mgdl, unit: CanonicalUnits.glucose, flags: flags,
                            provenance: base.provenance, metadata: base.metadata))
    }

    /// The unit of a glucose value written without one: ≤ 35 is mmol/L.
    static func inferredGlucoseUnit(_ v: Double) -> GlucoseUnit { v <= 35 ? .mmol : .mgdl }

    /// A non-negative amount inside its plausible range; nil when absent or null.
    func amount(_ doc: JSONDocument, _ slot: Int, _ range: ClosedRange<Double>, _ what: String, unit: String) throws -> Double? {
        guard doc.present(slot) else { return nil }
        guard let v = doc.number(slot) else {
            if doc.kind(slot) == .string, doc.bytes(slot)?.isEmpty == true { return nil }
            throw JSONFileRun.Reject("\(what) is not a number", at: doc.path(ofSlot: slot))
        }
        if let why = Plausibility.check(v, range, what, unit: unit) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: slot)) }
        return v
    }

    /// The treatment's `enteredBy` (iAPS, loop://iPhone, xdrip…) as its source, else the `app` API v3
    /// documents name their uploader with (AndroidAPS's NSClientV3 sends `app: "AAPS"`, no enteredBy).
    private func enteredBy(_ doc: JSONDocument) -> Symbol {
        uploaderName(doc, NightscoutFields.enteredBy) ?? uploaderName(doc, NightscoutFields.app) ?? nightscout
    }

    /// An uploader's name (`enteredBy`, a status's `device`), cached by its bytes; escapes decoded
    /// (`loop:\/\/iPhone`: Apple's JSONSerialization and Java's org.json escape every '/').
    func uploaderName(_ doc: JSONDocument, _ slot: Int) -> Symbol? {
        doc.withText(slot) { b in b.isEmpty ? nil : uploaders.value(b) { Symbol($0) } } ?? nil
    }
}
