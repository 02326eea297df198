import Foundation
import HealthPipeCore

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

    /// A decimal number in a trimmed cell (`.` or, with `decimalComma`, `,` as the separator);
    /// nil for anything else (text, `Low`, empty). The rule is Core's `DecimalText`.
    public static func double(_ raw: UnsafeRawBufferPointer, decimalComma: Bool = false) -> Double? {
        DecimalText.double(trim(raw), point: decimalComma ? UInt8(ascii: ",") : UInt8(ascii: "."))
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
