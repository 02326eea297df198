import HealthPipeCore

/// Content detection for JSON formats: parses the first object found in a file's opening bytes
/// (inside a top-level array or not) so a detector can look at its keys. An object longer than the
/// prefix (a report with a 100 KB note, a thousand values) is read as its skeleton: the members the
/// prefix holds, the one it cuts off replaced by an empty value of its kind (`""`, `[]`, `{}`), so
/// detection never depends on the first document fitting in the prefix.
package enum JSONSniff {
    /// The first object of the prefix, parsed with `table`; nil when the prefix holds no object.
    package static func firstObject(_ sniff: FileSniff, table: JSONPathTable) -> JSONDocument? {
        var cut = false
        return firstObject(sniff, table: table, cut: &cut)
    }

    /// As above; `cut` tells that the object runs past the prefix, so a key it lacks may come later.
    static func firstObject(_ sniff: FileSniff, table: JSONPathTable, cut: inout Bool) -> JSONDocument? {
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
        var cutOff = false
        cut = false
        let whole = body.withUnsafeBufferPointer { b -> JSONDocument? in
            switch parser.parse(b.baseAddress!, count: b.count) {
            case .complete: return doc.detached()
            case .incomplete: cutOff = true; return nil
            default: return nil
            }
        }
        if let whole { return whole }
        guard cutOff, let skeleton = skeleton(of: body[...]) else { return nil }
        cut = true
        let cut = JSONDocument(table: table)
        var again = JSONDocumentParser(document: cut)
        return skeleton.withUnsafeBufferPointer { b -> JSONDocument? in
            guard case .complete = again.parse(b.baseAddress!, count: b.count) else { return nil }
            return cut.detached()
        }
    }

    /// The object that starts `body` (at its `{`) and runs past its end, as the members `body` holds
    /// whole plus the member it cuts, with an empty value of the cut value's kind; nil when not even
    /// one key is there or the bytes are not JSON-like.
    static func skeleton(of body: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = [UInt8(ascii: "{")]
        var i = body.startIndex + 1
        var members = 0
        func spaces() { while i < body.endIndex, JSONDocumentParser.isSpace(body[i]) { i += 1 } }
        /// Moves past the string that starts at `i`; false when the bytes end first.
        func string() -> Bool {
            i += 1
            while i < body.endIndex {
                if body[i] == UInt8(ascii: "\\") { i += 2; continue }
                if body[i] == UInt8(ascii: "\"") { i += 1; return true }
                i += 1
            }
            return false
        }
        /// Moves past the value that starts at `i`; false when the bytes end first.
        func value() -> Bool {
            switch body[i] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < body.endIndex {
                    switch body[i] {
                    case UInt8(ascii: "\""): if !string() { return false }; continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; return true }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                while i < body.endIndex, !JSONDocumentParser.isSpace(body[i]),
                      body[i] != UInt8(ascii: ","), body[i] != UInt8(ascii: "}") { i += 1 }
                return i < body.endIndex
            }
        }
        while true {
            spaces()
            guard i < body.endIndex, body[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i
            guard string() else { break }
            let key = body[keyStart..<i]
            spaces()
            guard i < body.endIndex, body[i] == UInt8(ascii: ":") else { break }
            i += 1
            spaces()
            guard i < body.endIndex else { break }
            let valueStart = i, kind = body[i]
            let separator: [UInt8] = members > 0 ? [UInt8(ascii: ",")] : []
            guard value() else {
                let empty: String? = kind == UInt8(ascii: "\"") ? "\"\"" : kind == UInt8(ascii: "[") ? "[]" : kind == UInt8(ascii: "{") ? "{}" : nil
                if let empty {
                    out += separator + key + [UInt8(ascii: ":")] + Array(empty.utf8)
                    members += 1
                }
                break
            }
            out += separator + key + [UInt8(ascii: ":")] + body[valueStart..<i]
            members += 1
            spaces()
            guard i < body.endIndex, body[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        guard members > 0 else { return nil }
        return out + [UInt8(ascii: "}")]
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
