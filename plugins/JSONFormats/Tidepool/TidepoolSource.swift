import Foundation
import HealthPipeCore

/// Tidepool's JSON export (Export → JSON, or the `/export` API): one array of data objects from
/// every device of a person — CGM and meter readings, boluses, basal segments, food, bolus
/// calculator entries, activity, device events — each with a UTC `time` and the `timezoneOffset`
/// (minutes) Tidepool worked out for it. Streamed object by object.
final class TidepoolSource: Source, InputDescribing {
    static let format = "tidepool"

    let options: TidepoolOptions
    var inputPaths: [String] { [options.path] }

    init(options: TidepoolOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let mapper = TidepoolMapper(options: options)
        try JSONFileRun(path: options.path, format: Self.format, context: context)
            .run(table: TidepoolFields.table, emit: emit, tally: RowTally(knownTypes: 0), type: mapper.slot) { doc, out in
                try mapper.map(doc, &out)
            }
        if !mapper.skipped.isEmpty {
            context.warn("\(options.path): not imported: "
                         + mapper.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
    }
}

/// Turns Tidepool data objects into records.
final class TidepoolMapper {
    let options: TidepoolOptions
    let file: Symbol
    var zone: ZoneOffsets?
    /// Data types of the model not imported, by name.
    var skipped: [String: Int] = [:]
    var types = BytesCache<String>(capacity: 32)
    var devices = BytesCache<(source: Symbol, device: Symbol)>(capacity: 16)

    let tidepool = Symbol("Tidepool")
    let bloodGlucose = Symbol("blood_glucose")
    let ketoneUnit = Symbol("mmol/L")

    init(options: TidepoolOptions) {
        self.options = options
        file = Symbol(options.path)
        zone = options.zone.map { ZoneOffsets(zone: $0) }
    }

    /// A datum's slot in the run report's per-type counts: its `type`, known when the data model has it.
    func slot(_ doc: JSONDocument, _ tally: inout RowTally) -> Int {
        doc.withText(TidepoolFields.type) { b in
            b.isEmpty ? tally.untyped : tally.slot(named: b, known: TidepoolFields.known.contains(String(decoding: b, as: UTF8.self)))
        } ?? tally.untyped
    }

    /// Stored; skipped for a type of the data model HealthPipe does not import (settings, uploads,
    /// dosing decisions…) or a correction-only bolus calculation. A type outside the model is quarantined.
    func map(_ doc: JSONDocument, _ out: inout RecordBatcher) throws -> RowTally.Outcome {
        typealias F = TidepoolFields
        guard let type = doc.withText(F.type, { types.value($0) { $0 } }) else {
            throw JSONFileRun.Reject("not a Tidepool datum: no type", at: doc.path(ofSlot: F.type))
        }
        guard TidepoolFields.imported.contains(type) else {
            guard TidepoolFields.known.contains(type) else {
                throw JSONFileRun.Reject("data type '\(EchoText.cap(type, to: 40))' is not one of Tidepool's data model", at: doc.path(ofSlot: F.type))
            }
            skipped[type, default: 0] += 1
            return .skipped
        }
        guard let tt = doc.bytes(F.time), let t = JSONScalars.isoTime(tt), t.offset != nil else {
            throw JSONFileRun.Reject(doc.present(F.time) ? "unreadable time (ISO 8601 with a zone expected)" : "datum without a time",
                                     at: doc.path(ofSlot: F.time))
        }
        let start = CivilDate.floorDiv(t.milliseconds, 1000)
        let at = Stamp(start: start, offset: offset(doc, utc: start), provenance: Provenance(file: file, line: doc.line))
        switch type {
        case "cbg", "smbg": try glucose(doc, at, meter: type == "smbg", &out)
        case "bloodKetone": try ketone(doc, at, &out)
        case "bolus", "insulin": try bolus(doc, at, pen: type == "insulin", &out)
        case "basal": try basal(doc, at, &out)
        case "food", "wizard": return try meal(doc, at, wizard: type == "wizard", &out)
        case "physicalActivity": try activity(doc, at, &out)
        default: try deviceEvent(doc, at, &out)
        }
        return .stored
    }

    struct Stamp {
        var start: Int64
        var offset: Int32
        var provenance: Provenance
    }

    /// `timezoneOffset` (minutes) as Tidepool computed it for the datum; else the stage's zone; else UTC.
    private func offset(_ doc: JSONDocument, utc: Int64) -> Int32 {
        if let m = doc.number(TidepoolFields.timezoneOffset), abs(m) <= 16 * 60 { return Int32(m * 60) }
        if zone != nil { return zone!.offset(atUTC: utc) }
        return 0
    }

    /// Source and device of a datum: the CGM/meter family its `deviceId` names (`DexG6MobRec_…` → Dexcom), else the deviceId's maker part.
    func source(_ doc: JSONDocument) -> (source: Symbol, device: Symbol) {
        return doc.withText(TidepoolFields.deviceId) { b in
            b.isEmpty ? (tidepool, .empty) : devices.value(b) { id in
            let serial = id.split(whereSeparator: { $0 == "_" || $0 == ":" || $0 == "-" }).dropFirst().last.map(String.init)
            if let family = CGMSource.family(of: id) {
                return (Symbol(family), CGMSource.device(family: family, model: CGMSource.model(of: id), serial: serial, uploader: id))
            }
            return (Symbol(id), DeviceText.symbol([("id", id)]))
        } } ?? (tidepool, .empty)
    }

    /// The datum's own fields, except those stored in columns.
    func metadata(_ doc: JSONDocument, skipping: Set<String>) -> String? {
        JSONCompact.members(of: doc, skipping: skipping.union(["time", "timezoneOffset", "type"]))
    }

    /// A required non-negative amount in its plausible range.
    func amount(_ doc: JSONDocument, _ slot: Int, _ range: ClosedRange<Double>, _ what: String, unit: String) throws -> Double? {
        guard doc.present(slot) else { return nil }
        guard let v = doc.number(slot) else { throw JSONFileRun.Reject("\(what) is not a number", at: doc.path(ofSlot: slot)) }
        if let why = Plausibility.check(v, range, what, unit: unit) { throw JSONFileRun.Reject(why, at: doc.path(ofSlot: slot)) }
        return v
    }

    /// Tidepool durations are milliseconds.
    func endAfter(_ doc: JSONDocument, _ at: Stamp) throws -> Int64 {
        guard doc.kind(TidepoolFields.duration) == .number,
              let ms = try amount(doc, TidepoolFields.duration, 0...(Plausibility.durationMinutes.upperBound * 60_000), "duration", unit: "ms")
        else { return at.start }
        return at.start + Int64((ms / 1000).rounded())
    }
}
