import Foundation
import HealthPipeCore
import SQLiteStore

/// Stored readings as Nightscout entries (`lib/api/entries`): `sgv` (CGM, `glucose`) or `mbg`
/// (meter, `blood_glucose`) in mg/dL as Nightscout keeps them, `date` in ms, `dateString`,
/// `sysTime`, `utcOffset` (minutes), `type`, the trend `direction` the upload carried, and
/// `device` as the uploader named it (kept in the reading's device), else its source.
struct NightscoutEntry {
    static let metrics: [(type: String, metric: String)] = [("sgv", "glucose"), ("mbg", "blood_glucose")]

    let type: String
    let row: NightscoutRows.Row
    let direction: String?
    let device: String

    /// The change from the same source's reading before, in mg/dL, as uploaders send `delta`; 0 when
    /// there is none within 15 minutes (clients such as py-nightscout need the field).
    let delta: Double

    init(type: String, row: NightscoutRows.Row, previous: NightscoutRows.Row?) {
        self.type = type
        self.row = row
        if let previous, row.start - previous.start <= 15 * 60, let a = row.value, let b = previous.value { delta = a - b } else { delta = 0 }
        direction = Self.member("direction", of: row.metadata)
        device = Self.member("uploader", of: row.device) ?? row.source
    }

    var value: Int { Int(((row.value ?? 0)).rounded()) }
    /// The value as Nightscout's sandbox reads it (`Number(sgv)`) for `bgnow`.
    var mgdl: Double { Double(value) }
    var id: String { NightscoutID.make("entries", type, seconds: row.start) }

    /// A field as a query names it (`find[sgv][$gte]`, `find[type]`, `find[device]`).
    func field(_ name: String) -> Any? {
        switch name {
        case "type": return type
        case type: return value
        case "direction": return direction
        case "delta": return delta
        case "device": return device
        case "_id": return id
        case "dateString", "sysTime": return NightscoutTime.iso(row.start)
        case "date": return row.start * 1000
        case "utcOffset": return Int(row.utcOffset / 60)
        default: return nil
        }
    }

    func write(_ w: inout JSONWriter) {
        let iso = NightscoutTime.iso(row.start)
        w.beginObject()
        w.field("_id", id)
        w.field("type", type)
        w.key(type); w.int(value)
        w.field("date", row.start * 1000)
        w.field("dateString", iso)
        w.field("sysTime", iso)
        w.field("utcOffset", Int(row.utcOffset / 60))
        w.field("delta", delta)
        w.field("direction", ifPresent: direction)
        w.field("device", device)
        w.endObject()
    }

    /// One string member of a small stored JSON object (`{"direction":"Flat"}`, a device's attributes).
    static func member(_ key: String, of json: String?) -> String? {
        guard let json, json.contains("\"\(key)\"") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key] as? String
    }
}
