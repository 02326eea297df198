/// A small hand-written JSON emitter: NDJSON sinks, the dead-letter file and run reports use it
/// instead of `JSONEncoder`, which is far too slow for millions of records.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    public mutating func key(_ k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    public mutating func key(_ k: String) {
        separate()
        appendQuoted(k)
        bytes.append(UInt8(ascii: ":"))
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    public mutating func string(_ s: String) { separate(); appendQuoted(s) }
    public mutating func string(_ s: String?) { if let s { string(s) } else { null() } }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: (b ? "true" : "false").utf8) }

    public mutating func int(_ v: Int64) {
        separate()
        if v == 0 { bytes.append(UInt8(ascii: "0")); return }
        var n = v.magnitude
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var len = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            while n > 0 { buf[19 - len] = UInt8(n % 10) + 0x30; n /= 10; len += 1 }
            if v < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buf[(20 - len)...])
        }
    }
    public mutating func int(_ v: Int) { int(Int64(v)) }

    /// Finite doubles in the shortest form that round-trips; NaN and infinities become null.
    public mutating func double(_ v: Double) {
        guard v.isFinite else { null(); return }
        if v == v.rounded(), abs(v) < 1e15 { int(Int64(v)); return }
        separate()
        bytes.append(contentsOf: v.description.utf8)
    }
    public mutating func double(_ v: Double?) { if let v { double(v) } else { null() } }

    /// Appends a value that is already JSON text (a record's metadata or device object).
    public mutating func json(_ text: String) { separate(); bytes.append(contentsOf: text.utf8) }

    /// Appends members already written as JSON (`"k":v,"k2":v2`, from `quote`) to the open object.
    public mutating func members(_ encoded: [UInt8]) {
        guard !encoded.isEmpty else { return }
        separate()
        bytes.append(contentsOf: encoded)
    }

    /// Appends a newline (NDJSON record separator).
    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    // A key and its value in one call: what every hand-written object in HealthPipe is made of.
    public mutating func field(_ k: StaticString, _ v: String) { key(k); string(v) }
    public mutating func field(_ k: StaticString, _ v: String?) { key(k); string(v) }
    public mutating func field(_ k: StaticString, _ v: Symbol) { key(k); string(v.text) }
    public mutating func field(_ k: StaticString, _ v: Int64) { key(k); int(v) }
    public mutating func field(_ k: StaticString, _ v: Int) { key(k); int(Int64(v)) }
    public mutating func field(_ k: StaticString, _ v: Int32) { key(k); int(Int64(v)) }
    public mutating func field(_ k: StaticString, _ v: Double) { key(k); double(v) }
    public mutating func field(_ k: StaticString, _ v: Double?) { key(k); double(v) }
    public mutating func field(_ k: StaticString, _ v: Bool) { key(k); bool(v) }

    /// A key whose value is left out when absent (not written as null).
    public mutating func field(_ k: StaticString, ifPresent v: Double?) { if let v { key(k); double(v) } }
    public mutating func field(_ k: StaticString, ifPresent v: String?) { if let v { key(k); string(v) } }

    /// `"key":{…}` with the body written by `body`.
    public mutating func object(_ k: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(k); beginObject(); body(&self); endObject()
    }

    /// `"key":[…]` with one element per item, each written by `element`.
    public mutating func array<S: Sequence>(_ k: StaticString, _ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        key(k); beginArray()
        for item in items { element(&self, item) }
        endArray()
    }

    /// `"key":[{…},…]`: one object per item, its fields written by `fields`.
    public mutating func objects<S: Sequence>(_ k: StaticString, _ items: S, _ fields: (inout JSONWriter, S.Element) -> Void) {
        array(k, items) { w, item in w.beginObject(); fields(&w, item); w.endObject() }
    }

    private mutating func separate() {
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendQuoted(_ s: String) {
        var s = s
        s.withUTF8 { Self.quote($0, into: &bytes) }
    }

    /// Appends UTF-8 text as a JSON string (quotes, escapes): the one escaping rule of this writer,
    /// also for callers that hold bytes rather than a String (the Apple export's metadata).
    public static func quote(_ utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them whole.
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension String {
    /// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD (raw text of bad rows).
    public init(lossyUTF8 bytes: some Collection<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}
