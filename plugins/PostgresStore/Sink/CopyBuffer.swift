import HealthPipeCore

/// Rows in PostgreSQL's COPY text format, built from bytes: fields separated by tabs, rows by
/// newlines, `\N` for NULL, backslash escapes for tab, newline, carriage return and backslash.
/// Interned names are escaped once per symbol and then copied (they repeat on every row).
struct CopyBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var rows = 0
    private var atRowStart = true
    private var symbolBytes: [[UInt8]?] = []

    init() { bytes.reserveCapacity(1 << 20) }

    var isEmpty: Bool { rows == 0 }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        rows = 0
        atRowStart = true
    }

    @inline(__always) private mutating func separate() {
        if atRowStart { atRowStart = false } else { bytes.append(0x09) }
    }

    mutating func endRow() {
        bytes.append(0x0A)
        rows += 1
        atRowStart = true
    }

    mutating func null() {
        separate()
        bytes.append(0x5C)
        bytes.append(UInt8(ascii: "N"))
    }

    mutating func int(_ v: Int64) {
        separate()
        DecimalDigits.forEach(v) { bytes.append($0) }
    }

    mutating func int(_ v: Int64?) { if let v { int(v) } else { null() } }

    /// Shortest round-trip digits; NaN and infinities are NULL, as SQLite stores them.
    mutating func double(_ v: Double) {
        guard v.isFinite else { null(); return }
        if v == v.rounded(), abs(v) < 1e15 { int(Int64(v)); return }
        separate()
        bytes.append(contentsOf: v.description.utf8)
    }

    mutating func double(_ v: Double?) { if let v { double(v) } else { null() } }

    mutating func text(_ s: String) {
        separate()
        for b in s.utf8 { append(escaping: b) }
    }

    mutating func text(_ s: String?) { if let s { text(s) } else { null() } }

    /// An interned name (empty is '', not NULL).
    mutating func text(_ symbol: Symbol) {
        separate()
        let i = Int(symbol.id)
        if i >= symbolBytes.count { symbolBytes.append(contentsOf: repeatElement(nil, count: i + 1 - symbolBytes.count)) }
        if symbolBytes[i] == nil {
            var escaped: [UInt8] = []
            for b in symbol.text.utf8 { Self.escape(b, into: &escaped) }
            symbolBytes[i] = escaped
        }
        bytes.append(contentsOf: symbolBytes[i]!)
    }

    /// An interned name, NULL when empty (bands, intensity).
    mutating func textOrNull(_ symbol: Symbol) { if symbol.isEmpty { null() } else { text(symbol) } }

    @inline(__always) private mutating func append(escaping b: UInt8) { Self.escape(b, into: &bytes) }

    @inline(__always) private static func escape(_ b: UInt8, into out: inout [UInt8]) {
        switch b {
        case 0x5C: out.append(0x5C); out.append(0x5C)
        case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
        default: out.append(b)
        }
    }
}
