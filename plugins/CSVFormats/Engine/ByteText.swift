import Foundation

/// Byte-level helpers for CSV fields: trimming, comparison and number parsing without creating Strings.
public enum ByteText {
    @inline(__always)
    public static func trim(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var lo = 0, hi = b.count
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 || b[lo] == 0x0D { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 || b[hi - 1] == 0x0D { hi -= 1 }
        return UnsafeRawBufferPointer(rebasing: b[lo..<hi])
    }

    @inline(__always)
    public static func equals(_ b: UnsafeRawBufferPointer, _ s: StaticString) -> Bool {
        guard b.count == s.utf8CodeUnitCount else { return false }
        return memcmp(b.baseAddress!, s.utf8Start, b.count) == 0
    }

    /// Case-insensitive ASCII comparison.
    public static func equalsIgnoringCase(_ b: UnsafeRawBufferPointer, _ s: String) -> Bool {
        let u = Array(s.utf8)
        guard b.count == u.count else { return false }
        for i in 0..<u.count where (b[i] | 0x20) != (u[i] | 0x20) { return false }
        return true
    }

    /// Parses a decimal number: optional sign, digits, one decimal separator (`.`, or `,` when
    /// `decimalComma`), optional exponent. Nil for anything else (text, `Low`, empty, garbage).
    /// Correctly rounded for up to 15 significant digits; longer inputs go through strtod.
    public static func double(_ raw: UnsafeRawBufferPointer, decimalComma: Bool = false) -> Double? {
        let b = trim(raw)
        let n = b.count
        guard n > 0, n < 40 else { return nil }
        var i = 0
        var negative = false
        if b[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if b[0] == UInt8(ascii: "+") { i = 1 }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0, sawPoint = false, sawDigit = false
        let point = decimalComma ? UInt8(ascii: ",") : UInt8(ascii: ".")
        while i < n {
            let c = b[i]
            let d = c &- 0x30
            if d <= 9 {
                sawDigit = true
                if digits < 18 { mantissa = mantissa * 10 + UInt64(d); if mantissa > 0 { digits += 1 }; if sawPoint { fraction += 1 } }
                else if !sawPoint { return slow(b, decimalComma) }
                i += 1
            } else if c == point && !sawPoint {
                sawPoint = true
                i += 1
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                return sawDigit ? slow(b, decimalComma) : nil
            } else {
                return nil
            }
        }
        guard sawDigit else { return nil }
        if digits > 15 { return slow(b, decimalComma) }
        var v = Double(mantissa)
        if fraction > 0 { v /= pow10[fraction] }
        return negative ? -v : v
    }

    private static let pow10: [Double] = (0...22).map { Double("1e\($0)")! }

    private static func slow(_ b: UnsafeRawBufferPointer, _ decimalComma: Bool) -> Double? {
        var s = String(decoding: b, as: UTF8.self)
        if decimalComma { s = s.replacingOccurrences(of: ",", with: ".") }
        return Double(s)
    }

    /// Parses a whole number (digits only, optional sign).
    public static func int(_ raw: UnsafeRawBufferPointer) -> Int64? {
        let b = trim(raw)
        guard !b.isEmpty, b.count < 19 else { return nil }
        var i = 0, neg = false, v: Int64 = 0
        if b[0] == UInt8(ascii: "-") { neg = true; i = 1 }
        guard i < b.count else { return nil }
        while i < b.count {
            let d = b[i] &- 0x30
            guard d <= 9 else { return nil }
            v = v * 10 + Int64(d)
            i += 1
        }
        return neg ? -v : v
    }

    /// A duration `h:mm:ss` (or `mm:ss`) in seconds.
    public static func duration(_ raw: UnsafeRawBufferPointer) -> Int64? {
        let b = trim(raw)
        guard !b.isEmpty else { return nil }
        var total: Int64 = 0, part: Int64 = 0, sawDigit = false
        for c in b {
            if c == UInt8(ascii: ":") { total = total * 60 + part; part = 0; sawDigit = false }
            else if c &- 0x30 <= 9 { part = part * 10 + Int64(c &- 0x30); sawDigit = true }
            else { return nil }
        }
        guard sawDigit else { return nil }
        return total * 60 + part
    }
}
