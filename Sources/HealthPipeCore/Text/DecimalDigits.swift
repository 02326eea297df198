/// An integer's decimal digits as ASCII bytes, most significant first, handed to `body` one by one
/// without making a String: for writers that append bytes (COPY rows) or hash them (record ids).
public enum DecimalDigits {
    @inline(__always)
    public static func forEach(_ v: Int64, _ body: (UInt8) -> Void) {
        if v < 0 { body(UInt8(ascii: "-")) }
        var n = v.magnitude, div: UInt64 = 1
        while n / div >= 10 { div *= 10 }
        repeat {
            body(UInt8(n / div) + 0x30)
            n %= div
            div /= 10
        } while div > 0
    }
}
