import Foundation

/// A document's API v3 `identifier`. The store keeps no uploader's id, so — as the v1 `_id`
/// (`NightscoutID`: collection, key, second) — it is made from what identifies the stored row, and
/// computed alike from a document uploaded and from the document read back: the same identifier in
/// the POST's answer, in every read, for the same document sent again, and for AndroidAPS's PATCH.
/// A treatment's key adds which amounts it carries, since AndroidAPS sends a bolus and its carbs
/// as two `Meal Bolus` documents of one instant. The first 8 hex digits are the UTC second, so a
/// read by identifier reads one second.
enum NightscoutV3ID {
    static func of(_ doc: [String: Any], collection: String) -> String? {
        func seconds(_ doc: [String: Any], _ keys: [String]) -> Int64? { NightscoutTime.seconds(of: doc, keys) }
        switch collection {
        case "entries":
            let type = doc["type"] as? String ?? (doc["mbg"] != nil && doc["sgv"] == nil ? "mbg" : "sgv")
            return seconds(doc, NightscoutTime.entryKeys).map { NightscoutID.make("entries", type, seconds: $0) }
        case "treatments":
            func has(_ key: String) -> Bool { carries(doc, key) }
            let key = (doc["eventType"] as? String ?? "") + "\u{0}" + (has("insulin") ? "insulin" : "") + (has("carbs") ? "carbs" : "")
            return seconds(doc, NightscoutTime.treatmentKeys).map { NightscoutID.make("treatments", key, seconds: $0) }
        case "devicestatus":
            let device = (doc["device"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "Nightscout"
            return seconds(doc, NightscoutTime.deviceStatusKeys).map { NightscoutID.make("devicestatus", device, seconds: $0) }
        case "profile":
            let name = doc["defaultProfile"] as? String ?? "Default"
            return NightscoutID.make("profile", name, seconds: seconds(doc, ["startDate", "mills", "created_at", "date"]) ?? 0)
        default:
            return nil
        }
    }

    /// Whether a treatment carries an amount (`insulin`, `carbs`): part of its identity.
    static func carries(_ doc: [String: Any], _ key: String) -> Bool { ((doc[key] as? NSNumber)?.doubleValue ?? 0) > 0 }

    /// The UTC second an identifier names; nil for text that is not one of ours.
    static func second(of identifier: String) -> Int64? {
        guard identifier.count == 24, identifier.allSatisfy(\.isHexDigit) else { return nil }
        return Int64(identifier.prefix(8), radix: 16)
    }
}
