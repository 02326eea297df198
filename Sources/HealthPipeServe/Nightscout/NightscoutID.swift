/// The `_id` of a document, as Nightscout's clients keep it (24 hex digits, a MongoDB ObjectId's
/// shape: 4 bytes of UTC seconds, then 8 of a hash). The store keeps no uploader's id, so the id is
/// made from what identifies the stored row as Nightscout identifies a document — its collection,
/// type (`sgv`, the eventType, the device) and second — the same for the POST's answer and every
/// later read, and the same for a document sent twice.
enum NightscoutID {
    static func make(_ collection: String, _ key: String, seconds: Int64) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64
        for byte in (collection + "\u{0}" + key).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hex(UInt64(UInt32(truncatingIfNeeded: seconds)), digits: 8) + hex(hash, digits: 16)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
