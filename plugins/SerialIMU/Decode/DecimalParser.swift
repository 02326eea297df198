/// Parses a decimal number (`-0.539`, `1e-3`, `9.81`) from ASCII bytes without building a String.
/// Returns nil for anything else, including `nan` and `inf` (which are never readings).
enum DecimalParser {
    static func parse(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        var i = start, e = end
        while i < e, p[i] == 0x20 { i += 1 }
        while e > i, p[e - 1] == 0x20 { e -= 1 }
        guard i < e else { return nil }
        var negative = false
        if p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { negative = p[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0, sawDigit = false
        while i < e, p[i] &- 0x30 < 10 {
            if digits < 18 { mantissa = mantissa * 10 + UInt64(p[i] - 0x30); digits += 1 } else { scale += 1 }
            sawDigit = true
            i += 1
        }
        if i < e, p[i] == UInt8(ascii: ".") {
            i += 1
            while i < e, p[i] &- 0x30 < 10 {
                if digits < 18 { mantissa = mantissa * 10 + UInt64(p[i] - 0x30); digits += 1; scale -= 1 }
                sawDigit = true
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < e, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < e, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { expNegative = p[i] == UInt8(ascii: "-"); i += 1 }
            var exp = 0, expDigits = 0
            while i < e, p[i] &- 0x30 < 10, expDigits < 4 { exp = exp * 10 + Int(p[i] - 0x30); expDigits += 1; i += 1 }
            guard expDigits > 0 else { return nil }
            scale += expNegative ? -exp : exp
        }
        guard i == e else { return nil }
        var v = Double(mantissa)
        if scale != 0 { v *= pow10(scale) }
        return negative ? -v : v
    }

    private static let powers: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { r, _ in r * 10 } }

    private static func pow10(_ n: Int) -> Double {
        if n >= 0 { return n <= 22 ? powers[n] : (0..<n).reduce(1.0) { r, _ in r * 10 } }
        return -n <= 22 ? 1 / powers[-n] : (0 ..< -n).reduce(1.0) { r, _ in r / 10 }
    }
}
