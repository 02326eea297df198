import CLibXML2
import Foundation
import HealthPipeCore

/// What the emitters ask of the export: local offsets from HKTimeZone, the date filter, metadata as
/// JSON, and rejecting an element with its line.
extension ExportHandler {
    /// The UTC offset for local days: the record's HKTimeZone at that instant, else the stage's
    /// zone, else the offset written in the date (the phone's zone at export time).
    func offset(at start: HealthDate.Parsed) -> Int32 {
        if let name = draft.timeZone, let zone = zone(named: name) { return Self.offset(zone, start.utc) }
        if let zone = options.zone { return Self.offset(zone, start.utc) }
        return start.offset
    }

    private static func offset(_ zone: TimeZone, _ utc: Int64) -> Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc))))
    }

    private func zone(named name: String) -> TimeZone? {
        if let z = zones[name] { return z }
        let z = TimeZone(identifier: name)
        zones[name] = z
        return z
    }

    func dayIncluded(_ localSeconds: Int64) -> Bool {
        guard options.fromDay != nil || options.toDay != nil else { return true }
        let day = CivilDate.floorDiv(localSeconds, 86_400)
        if let f = options.fromDay, day < f { return false }
        if let t = options.toDay, day > t { return false }
        return true
    }

    /// The draft's metadata as a JSON object text; nil when it has none. Without extra members the
    /// text comes from `metadataCache`: records of one device usually repeat the same entries.
    func metadataJSON(extra: ((inout JSONWriter) -> Void)? = nil) -> String? {
        guard let extra else { return draft.metadata.isEmpty ? nil : metadataCache.text(for: draft.metadata.bytes) }
        json.reset()
        json.beginObject()
        extra(&json)
        json.members(draft.metadata.bytes)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The draft's device symbol (`.empty` when the element has no `device`).
    var deviceSymbol: Symbol { draft.device?.symbol ?? .empty }

    /// A quarantined element, counted under its slot: the one place the handler's rejections are
    /// counted, so the file's quarantined rows are its quarantine lines.
    func quarantine(_ error: RowError, slot: Int) {
        rejects.append(error)
        tally.count(slot, .quarantined)
    }

    /// A rejected top-level element, counted under its type: it keeps its own bytes, every line of
    /// it (its metadata entries too), whichever reader read it.
    func reject(_ reason: String) {
        if let whole = wholeElement() {
            quarantine(RowError(file: path, line: draft.line, reason: reason, raw: whole, rawLimit: EchoText.elementLimit), slot: elementSlot)
            return
        }
        var raw = "<\(draft.type?.identifier ?? "?") sourceName=\"\(draft.sourceName)\""
        if let u = draft.unit { raw += " unit=\"\(u.appleUnit)\"" }
        if let n = draft.number { raw += " value=\"\(Plausibility.number(n))\"" } else if let t = draft.text { raw += " value=\"\(t)\"" }
        for (name, date) in [("startDate", draft.start), ("endDate", draft.end)] {
            if let d = date {
                let local = CivilDate.isoDateTime(seconds: d.utc + Int64(d.offset)).replacingOccurrences(of: "T", with: " ")
                raw += " \(name)=\"\(local) \(Self.offsetText(d.offset))\""
            }
        }
        quarantine(RowError(file: path, line: draft.line, reason: reason, raw: raw + ">"), slot: elementSlot)
    }

    /// A rejected child of a top-level element (a workout's route point), counted under `slot`: it
    /// keeps its own attributes as the parser read them (`&#38;` for `&`), not its parent's.
    func reject(child name: StaticString, _ a: Attributes, _ reason: String, slot: Int) {
        var raw = "<\(name)"
        for i in 0..<a.count {
            raw += " " + String(cString: a.name(i)) + "=\"" + String(decoding: UnsafeBufferPointer(start: a.value(i), count: a.length(i)), as: UTF8.self) + "\""
        }
        quarantine(RowError(file: path, line: Int64(currentLine()), reason: reason, raw: raw + "/>"), slot: slot)
    }

    /// The tally slot of the draft's Record or Correlation type, made on its type's first element
    /// (no type: `untyped`). Per element, one read of the type's slot.
    @inline(__always)
    func typeSlot() -> Int {
        guard let type = draft.type else { return tally.untyped }
        if type.slot < 0 {
            type.slot = Array(type.identifier.utf8).withUnsafeBytes { tally.slot(named: $0, known: ElementTypes.isHealthKit(type.identifier)) }
        }
        return type.slot
    }

    /// The top-level element being read, byte for byte up to `EchoText.elementLimit` (its value,
    /// unit and dates may follow kilobytes of other attributes); nil when there is none.
    func wholeElement() -> String? {
        var bytes = elementBytes()
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        return bytes.isEmpty ? nil : EchoText.raw(bytes, limit: EchoText.elementLimit)
    }

    private static func offsetText(_ seconds: Int32) -> String {
        let m = abs(Int(seconds)) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d%02d", m / 60, m % 60)
    }
}
