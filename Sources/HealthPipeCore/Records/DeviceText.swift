/// A device is named by the JSON object text of its fields as the source wrote them, in order
/// (`{"name":"Apple Watch","manufacturer":"Apple Inc.","model":"Watch","hardware":"Watch6,2",
/// "software":"9.2"}`), interned as a `Symbol`: thousands of records share a handful of devices,
/// so records carry 4 bytes and sinks store each device once.
public enum DeviceText {
    /// The device symbol for `fields`; `.empty` when there are none.
    public static func symbol(_ fields: [(key: String, value: String)]) -> Symbol {
        guard !fields.isEmpty else { return .empty }
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        for (key, value) in fields {
            w.key(key)
            w.string(value)
        }
        w.endObject()
        return Symbol(String(decoding: w.bytes, as: UTF8.self))
    }
}
