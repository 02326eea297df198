/// A file that is one object whose records are the elements of one array member — Google Fit's
/// `{"Data Source": "…", "Data Points": [{…}, {…}]}` — read as a stream of those elements, not as one
/// document of the whole file (which can be far larger than a document may be). The members written
/// before the array (small: the file's name for its records) are handed to the source as raw JSON.
package struct JSONEnvelope: Sendable {
    /// The key of the array member whose elements are the documents, as written (no escapes).
    let key: [UInt8]

    package init(arrayKey: String) { key = Array(arrayKey.utf8) }

    enum Head {
        /// The bytes read end before the array opens.
        case incomplete
        case invalid(String)
        /// The object closes without the array: it is read as one ordinary document.
        case noArray
        /// The array opens after `length` bytes (`[` included), `newlines` of them line breaks; the
        /// members before it, each as its key and raw JSON value.
        case entered(length: Int, newlines: Int, members: [(key: String, raw: String)])
    }

    /// Reads the object that starts at `p[0]` (`{`) up to the opening `[` of the array member.
    func head(_ p: UnsafePointer<UInt8>, _ n: Int) -> Head {
        var j = 1, newlines = 0
        var members: [(key: String, raw: String)] = []
        func skipSpace() {
            while j < n, p[j] == 0x20 || p[j] == 0x09 || p[j] == 0x0D || p[j] == 0x0A {
                if p[j] == 0x0A { newlines += 1 }
                j += 1
            }
        }
        while true {
            skipSpace()
            guard j < n else { return .incomplete }
            if p[j] == UInt8(ascii: "}") { return .noArray }
            guard p[j] == UInt8(ascii: "\"") else { return .invalid("a member of the top-level object does not start with a key") }
            let keyStart = j + 1
            j += 1
            var escaped = false
            while j < n, escaped || p[j] != UInt8(ascii: "\"") {
                escaped = !escaped && p[j] == 0x5C
                if p[j] == 0x0A { return .invalid("a key of the top-level object runs past its line") }
                j += 1
            }
            guard j < n else { return .incomplete }
            let name = UnsafeBufferPointer(start: p + keyStart, count: j - keyStart)
            j += 1
            skipSpace()
            guard j < n else { return .incomplete }
            guard p[j] == UInt8(ascii: ":") else { return .invalid("no ':' after a key of the top-level object") }
            j += 1
            skipSpace()
            guard j < n else { return .incomplete }
            if name.elementsEqual(key) {
                guard p[j] == UInt8(ascii: "[") else {
                    return .invalid("\"\(String(decoding: key, as: UTF8.self))\" is not an array")
                }
                return .entered(length: j + 1, newlines: newlines, members: members)
            }
            // Another member's value: to its end (strings and brackets tracked).
            let valueStart = j
            var nesting = JSONNesting()
            if p[j] == UInt8(ascii: "\"") {
                j += 1
                var escapedValue = false
                while j < n, escapedValue || p[j] != UInt8(ascii: "\"") {
                    escapedValue = !escapedValue && p[j] == 0x5C
                    if p[j] == 0x0A { return .invalid("a string of the top-level object runs past its line") }
                    j += 1
                }
                guard j < n else { return .incomplete }
                j += 1
            } else if p[j] == UInt8(ascii: "{") || p[j] == UInt8(ascii: "[") {
                while j < n, !nesting.closesValue(p[j]) {
                    if p[j] == 0x0A { newlines += 1 }
                    j += 1
                }
                guard j < n else { return .incomplete }
                j += 1
            } else {
                while j < n, p[j] != UInt8(ascii: ","), p[j] != UInt8(ascii: "}"), p[j] != 0x0A, p[j] != 0x20, p[j] != 0x0D, p[j] != 0x09 { j += 1 }
                guard j < n else { return .incomplete }
            }
            members.append((String(decoding: name, as: UTF8.self),
                            String(decoding: UnsafeBufferPointer(start: p + valueStart, count: j - valueStart), as: UTF8.self)))
            skipSpace()
            guard j < n else { return .incomplete }
            if p[j] == UInt8(ascii: ",") { j += 1; continue }
            if p[j] == UInt8(ascii: "}") { return .noArray }
            return .invalid("no ',' or '}' after a member of the top-level object")
        }
    }
}
