import HealthPipeCore

/// Writes parsed JSON nodes back out compactly (metadata of events: a treatment's or a datum's
/// own fields, as written, with extended-JSON wrappers already folded away).
enum JSONCompact {
    /// The document's top-level members, except `skip`, as one JSON object text; nil when none remain.
    static func members(of doc: JSONDocument, skipping skip: Set<String>, extra: ((inout JSONWriter) -> Void)? = nil) -> String? {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        extra?(&w)
        var wrote = extra != nil
        for c in doc.children(of: nil) {
            let key = String(decoding: doc.keyBytes(c), as: UTF8.self)
            if skip.contains(key) || doc.nodes[c].kind == .null { continue }
            w.key(key)
            value(doc, c, &w)
            wrote = true
        }
        w.endObject()
        return wrote ? String(decoding: w.bytes, as: UTF8.self) : nil
    }

    /// One node and everything under it.
    static func value(_ doc: JSONDocument, _ n: Int, _ w: inout JSONWriter) {
        let node = doc.nodes[n]
        switch node.kind {
        case .string, .escapedString:
            let bytes = doc.valueBytes(n)
            if bytes.contains(where: { $0 < 0x20 }) {
                w.string(doc.string(node: n) ?? "")  // raw control characters: re-escape
            } else {
                // Valid JSON string content already (escapes kept as written).
                w.json("\"" + String(decoding: bytes, as: UTF8.self) + "\"")
            }
        case .number, .bool, .null:
            w.json(String(decoding: doc.valueBytes(n), as: UTF8.self))
        case .object:
            w.beginObject()
            for c in doc.children(of: n) {
                w.key(String(decoding: doc.keyBytes(c), as: UTF8.self))
                value(doc, c, &w)
            }
            w.endObject()
        case .array:
            w.beginArray()
            for c in doc.children(of: n) { value(doc, c, &w) }
            w.endArray()
        }
    }
}
