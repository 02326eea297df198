import HealthPipeCore

/// Device status (Loop, OpenAPS/AAPS/iAPS, pumps, uploader phones) → measurements of what the
/// loop or pump reported: insulin on board (U; the 600-series uploader's `pump.iob.bolusiob`), carbs on board (g), pump reservoir (U), pump and uploader
/// battery (%). The source is the status's `device` (`loop://iPhone`, `openaps://rig`).
extension NightscoutMapper {
    static let insulinOnBoard = Symbol("insulin_on_board")
    static let carbsOnBoard = Symbol("carbs_on_board")
    static let pumpReservoir = Symbol("pump_reservoir")
    static let pumpBattery = Symbol("pump_battery")
    static let uploaderBattery = Symbol("uploader_battery")
    static let percentUnit = Symbol("%")

    /// Stored, or skipped when the status holds none of these values (only a loop prediction, say).
    func deviceStatus(_ doc: JSONDocument, _ out: inout RecordBatcher) throws -> RowTally.Outcome {
        typealias F = NightscoutFields
        guard let at = time(doc, F.createdAt) ?? time(doc, F.mills) ?? time(doc, F.date) else {
            throw JSONFileRun.Reject("device status without created_at", at: doc.path(ofSlot: F.createdAt))
        }
        let source = uploaderName(doc, F.device) ?? nightscout
        let utcOffset = offset(doc, utc: at.utc, written: at.offset)
        let values: [(Symbol, Symbol, [Int])] = [
            (Self.insulinOnBoard, CanonicalUnits.insulinUnits, [F.openapsIOB, F.openapsIOBList, F.loopIOB, F.pumpIOB, F.pumpBolusIOB]),
            (Self.carbsOnBoard, CanonicalUnits.grams, [F.openapsCOB, F.openapsEnactedCOB, F.loopCOB]),
            (Self.pumpReservoir, CanonicalUnits.insulinUnits, [F.pumpReservoir]),
            (Self.pumpBattery, Self.percentUnit, [F.pumpBattery]),
            (Self.uploaderBattery, Self.percentUnit, [F.uploaderBatteryNested, F.uploaderBattery]),
        ]
        var wrote = false
        for (metric, unit, slots) in values {
            guard let slot = slots.first(where: { doc.present($0) }) else { continue }
            guard let v = doc.number(slot) else { throw JSONFileRun.Reject("\(metric) is not a number", at: doc.path(ofSlot: slot)) }
            if let why = Plausibility.problem(metric: metric, value: v, unit: unit) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: slot)) }
            out.add(Measurement(subject: options.subject, metric: metric, source: source, start: at.utc, utcOffset: utcOffset,
                                value: v, unit: unit, provenance: provenance(doc)))
            wrote = true
        }
        return wrote ? .stored : .skipped
    }
}
