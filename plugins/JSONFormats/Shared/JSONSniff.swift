import HealthPipeCore

/// Content detection for JSON formats: parses the first object found in a file's opening bytes
/// (inside a top-level array or not) so a detector can look at its keys.
enum JSONSniff {
    /// The first object of the prefix, parsed with `table`; nil when the prefix holds no complete object.
    static func firstObject(_ sniff: FileSniff, table: JSONPathTable) -> JSONDocument? {
        var bytes = sniff.prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let open = bytes.firstIndex(where: { !JSONDocumentParser.isSpace($0) }) else { return nil }
        var start = open
        if bytes[start] == UInt8(ascii: "[") {
            guard let o = bytes[(start + 1)...].firstIndex(where: { !JSONDocumentParser.isSpace($0) }) else { return nil }
            start = o
        }
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        let doc = JSONDocument(table: table)
        var parser = JSONDocumentParser(document: doc)
        let body = Array(bytes[start...])
        // The nodes point into `body`; read them before it goes away.
        return body.withUnsafeBufferPointer { b -> JSONDocument? in
            guard case .complete = parser.parse(b.baseAddress!, count: b.count) else { return nil }
            return doc.detached()
        }
    }
}

extension JSONDocument {
    /// A copy whose nodes point into its own bytes (for detection, where the source buffer is temporary).
    func detached() -> JSONDocument {
        let copy = JSONDocument(table: table)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        storage.update(from: base, count: count)
        copy.adopt(base: UnsafePointer(storage), count: count, nodes: nodes, slots: slots, owned: storage)
        return copy
    }
}
