import HealthPipeCore

/// Entries (`sgv` CGM readings, `mbg` meter readings) → glucose measurements in mg/dL (Nightscout
/// stores mg/dL whatever the site displays). The source is the CGM family named by `device`
/// (`CGMSource`), so the same reading from Clarity or Tidepool lands on the same row.
extension NightscoutMapper {
    static let firstReading = 13.0

    /// Stored, or skipped: a calibration or raw sensor record (`cal`, `sensor`), a reading a second
    /// uploader repeated. An entry of another `type` is quarantined (`NightscoutDocumentTypes`).
    func entry(_ doc: JSONDocument, _ out: inout RecordBatcher) throws -> RowTally.Outcome {
        typealias F = NightscoutFields
        // The usual types are compared as bytes: only a rare one makes a String.
        if doc.present(F.type), !doc.equals(F.type, "sgv"), !doc.equals(F.type, "mbg"),
           let type = doc.string(F.type)?.lowercased(), !type.isEmpty, !NightscoutDocumentTypes.readingEntryTypes.contains(type) {
            guard NightscoutDocumentTypes.nonDataEntryTypes.contains(type) else {
                throw JSONFileRun.Reject("entry type '\(EchoText.cap(type, to: 40))' is not one Nightscout readings use (sgv, mbg; "
                                         + "cal and sensor are read as not data)", at: doc.path(ofSlot: F.type))
            }
            if type == "cal" { calibrations += 1 }
            return .skipped
        }
        let meter = doc.equals(F.type, "mbg") || (!doc.has(F.sgv) && doc.has(F.mbg))
        let slot = meter ? F.mbg : F.sgv
        guard let writtenValue = doc.number(slot) else {
            throw JSONFileRun.Reject(doc.present(slot) ? "\(meter ? "mbg" : "sgv") is not a number" : "entry without an sgv or mbg value",
                                     at: doc.path(ofSlot: slot))
        }
        // Nightscout stores mg/dL; an uploader that says otherwise in `units` (`mmol`) is believed.
        var unit = GlucoseUnit.mgdl
        if let u = doc.string(F.units), !u.isEmpty {
            guard let known = GlucoseUnit(spelling: u) else {
                throw JSONFileRun.Reject("unknown glucose unit '\(u)'", at: doc.path(ofSlot: F.units))
            }
            unit = known
        }
        let value = unit.toMgdl(writtenValue)
        // Dexcom's special values (0–12: sensor not active, no antenna, ? / ???…) are not readings. Values
        // from 13 up are: the real iAPS sample has a smooth night low 43 → 32 → 43 with trend arrows.
        if !meter, unit == .mgdl, value < Self.firstReading {
            throw JSONFileRun.Reject("sgv \(Plausibility.number(value)) is a CGM status code (0–12: Dexcom's sensor states, no reading), not a glucose value", at: doc.path(ofSlot: slot))
        }
        if let why = Plausibility.check(value, Plausibility.glucoseMgdl, meter ? "mbg" : "sgv", unit: "mg/dL") {
            throw JSONFileRun.Reject(why, at: doc.path(ofSlot: slot))
        }
        guard let at = time(doc, F.date) ?? time(doc, F.dateString) ?? time(doc, F.sysTime) else {
            guard doc.present(F.date) || doc.present(F.dateString) else { throw JSONFileRun.Reject("entry without a date", at: doc.path(ofSlot: F.date)) }
            let shown = doc.number(F.date).map { Plausibility.number($0) } ?? doc.string(F.date) ?? doc.string(F.dateString) ?? ""
            throw JSONFileRun.Reject("unreadable date '\(EchoText.cap(shown, to: 80))' (not epoch milliseconds or seconds after "
                                     + "1970-01-01 and before 2100-01-01, nor a date text)", at: doc.path(ofSlot: F.date))
        }
        let written = at.offset ?? writtenOffset(doc, F.dateString, utc: at.utc)
        let cgm = cgmSource(doc)
        let metric = meter ? bloodGlucose : Metrics.glucose
        let m = Measurement(subject: options.subject, metric: metric, source: cgm.source, start: at.utc,
                            utcOffset: offset(doc, utc: at.utc, written: written), value: value,
                            unit: CanonicalUnits.glucose, flags: (meter ? RecordFlags.userEntered : []).union(unit == .mmol ? .convertedFromMmol : []), provenance: provenance(doc), device: cgm.device,
                            metadata: directionJSON(doc))
        switch recent.check(source: cgm.source, metric: metric, start: at.utc, position: out.nextMeasurementPosition) {
        case .new:
            out.add(m)
            return .stored
        case .repeatLater:
            nearDuplicates += 1
            return .skipped
        case .repeatEarlier(let position):
            // It takes the place of the reading kept before (counted stored then): one of the two is skipped.
            nearDuplicates += 1
            if out.replace(at: position, with: m) { return .skipped }
            out.add(m)
            return .stored
        }
    }

    /// Source and device of an entry: the family its `device` names, else the `cgm` option, else `Nightscout`.
    private func cgmSource(_ doc: JSONDocument) -> (source: Symbol, device: Symbol) {
        let fallback = options.cgm ?? "Nightscout"
        let named = doc.withText(NightscoutFields.device) { b in
            b.isEmpty ? nil : cgmDevices.value(b) { name in
                let family = CGMSource.family(of: name) ?? fallback
                return (Symbol(family), CGMSource.device(family: family, model: CGMSource.model(of: name), serial: nil, uploader: name))
            }
        }
        return (named ?? nil) ?? cgmDevices.value(UnsafeRawBufferPointer(start: nil, count: 0)) { _ in
            (Symbol(fallback), options.cgm.map { CGMSource.device(family: $0, model: nil, serial: nil, uploader: nil) } ?? .empty)
        }
    }

    /// `{"direction":"Flat"}` (trend arrow), shared by every reading with that direction.
    private func directionJSON(_ doc: JSONDocument) -> String? {
        let json = doc.withText(NightscoutFields.direction) { b in
            b.isEmpty ? nil : directions.value(b) { d in
                var w = JSONWriter(capacity: 32)
                w.beginObject()
                w.key("direction"); w.string(d)
                w.endObject()
                return String(decoding: w.bytes, as: UTF8.self)
            }
        }
        return json ?? nil
    }
}
