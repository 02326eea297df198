import HealthPipeCore

/// cbg (CGM), smbg (meter) and bloodKetone → measurements. Glucose arrives in the unit the export
/// was made in (`units`: Tidepool stores mmol/L, the export may convert to mg/dL); both become whole
/// mg/dL. `bg/out-of-range` annotations (a sensor's Low/High) set the range flags.
extension TidepoolMapper {
    func glucose(_ doc: JSONDocument, _ at: Stamp, meter: Bool, _ out: inout RecordBatcher) throws {
        typealias F = TidepoolFields
        guard let v = doc.number(F.value) else {
            throw JSONFileRun.Reject(doc.present(F.value) ? "value is not a number" : "reading without a value", at: doc.path(ofSlot: F.value))
        }
        let unitText = doc.string(F.units) ?? "mmol/L"
        guard let unit = GlucoseUnit(spelling: unitText) else {
            throw JSONFileRun.Reject("unknown glucose unit '\(unitText)'", at: doc.path(ofSlot: F.units))
        }
        // Tidepool keeps mmol/L unrounded (mg/dL ÷ 18.01559), and its mg/dL exports multiply back:
        // either way the reading is a whole mg/dL again.
        let mgdl = unit == .mmol ? CanonicalUnits.mgdl(fromMmol: v) : v.rounded(.toNearestOrAwayFromZero)
        if let why = Plausibility.check(mgdl, Plausibility.glucoseMgdl, "glucose", unit: "mg/dL") {
            throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.value))
        }
        var flags: RecordFlags = unit == .mmol ? .convertedFromMmol : []
        if meter, doc.equals(F.subType, "manual") { flags.insert(.userEntered) }
        if doc.equals(F.annotationCode, "bg/out-of-range") {
            if doc.equals(F.annotationValue, "low") { flags.insert(.belowSensorRange) }
            if doc.equals(F.annotationValue, "high") { flags.insert(.aboveSensorRange) }
        }
        let s = source(doc)
        out.add(Measurement(subject: options.subject, metric: meter ? bloodGlucose : Metrics.glucose, source: s.source,
                            start: at.start, utcOffset: at.offset, value: mgdl, unit: CanonicalUnits.glucose, flags: flags,
                            provenance: at.provenance, device: s.device))
    }

    func ketone(_ doc: JSONDocument, _ at: Stamp, _ out: inout RecordBatcher) throws {
        guard let v = try amount(doc, TidepoolFields.value, Plausibility.ketoneMmol, "ketone", unit: "mmol/L") else {
            throw JSONFileRun.Reject("bloodKetone without a value", at: doc.path(ofSlot: TidepoolFields.value))
        }
        let s = source(doc)
        out.add(Measurement(subject: options.subject, metric: Metrics.ketone, source: s.source, start: at.start,
                            utcOffset: at.offset, value: v, unit: ketoneUnit, provenance: at.provenance, device: s.device))
    }
}
