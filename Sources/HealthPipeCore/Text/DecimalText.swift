#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decimal number read straight from bytes, for every reader of text formats (CSV cells, JSON
/// numbers, XML attributes, serial lines): `[+-]digits[.digits][(e|E)[+-]digits]`, with `point`
/// as the decimal separator. Nothing else is a number here — no spaces (callers trim what their
/// format allows), no `nan`, `inf` or hex — and a value too large for a Double is not one either.
///
/// Correctly rounded: up to 15 significant digits with a power of ten up to 22 is one exact
/// multiplication or division (Clinger's fast path, what almost every reading is); anything else
/// goes to `strtod`. `strtod` itself on every value cost ~550 instructions a number.
public enum DecimalText {
    public static func double(_ b: UnsafeRawBufferPointer, point: UInt8 = UInt8(ascii: ".")) -> Double? {
        let n = b.count
        guard n > 0 else { return nil }
        var i = 0, negative = false
        if b[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if b[0] == UInt8(ascii: "+") { i = 1 }
        var mantissa: UInt64 = 0, significant = 0, scale = 0, sawDigit = false, sawPoint = false, exact = true
        while i < n {
            let d = b[i] &- 0x30
            if d <= 9 {
                sawDigit = true
                if mantissa > 0 || d > 0 { significant += 1 }
                if significant <= 15 {
                    mantissa = mantissa * 10 + UInt64(d)
                    if sawPoint { scale -= 1 }
                } else {
                    exact = false
                }
            } else if b[i] == point, !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if i < n {
            guard b[i] | 0x20 == UInt8(ascii: "e") else { return nil }
            i += 1
            var expNegative = false
            if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { expNegative = b[i] == UInt8(ascii: "-"); i += 1 }
            var exponent = 0, expDigits = 0
            while i < n, b[i] &- 0x30 <= 9 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(b[i] &- 0x30) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == n else { return nil }
            scale += expNegative ? -exponent : exponent
        }
        if exact, scale >= -22, scale <= 22 {
            var v = Double(mantissa)
            if scale < 0 { v /= powers[-scale] } else if scale > 0 { v *= powers[scale] }
            guard v.isFinite else { return nil }
            return negative ? -v : v
        }
        return viaStrtod(b, point: point)
    }

    private static let powers: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// The bytes, already checked to be a number, through `strtod` (with `.` for the point).
    private static func viaStrtod(_ b: UnsafeRawBufferPointer, point: UInt8) -> Double? {
        guard b.count < 128 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: b.count + 1) { text in
            for i in 0..<b.count { text[i] = CChar(bitPattern: b[i] == point ? UInt8(ascii: ".") : b[i]) }
            text[b.count] = 0
            let v = strtod(text.baseAddress!, nil)
            return v.isFinite ? v : nil
        }
    }
}
