/// A beat's local time of day as the Health app writes it in `InstantaneousBeatsPerMinute`:
/// `7:46:04.05 PM` (12-hour: any case, any space before the mark — iOS 17 writes U+202F) or
/// `19:46:04,05` (24-hour; a decimal comma in some locales). Read byte by byte: Foundation's
/// trimming and replacing cost about 10,000 instructions a beat, more than the rest of its record.
enum BeatClock {
    /// Milliseconds after local midnight, or nil when the text is not such a time.
    static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var lo = 0, hi = b.count
        while lo < hi, let n = spaceStarting(b, at: lo, end: hi) { lo += n }
        while lo < hi, let n = spaceEnding(b, at: hi, start: lo) { hi -= n }
        var pm: Bool? = nil
        if hi - lo >= 2, b[hi - 1] | 0x20 == UInt8(ascii: "m") {
            switch b[hi - 2] | 0x20 {
            case UInt8(ascii: "a"): pm = false
            case UInt8(ascii: "p"): pm = true
            default: break
            }
            if pm != nil {
                hi -= 2
                while lo < hi, let n = spaceEnding(b, at: hi, start: lo) { hi -= n }
            }
        }
        var i = lo
        guard var h = digits(b, &i, hi), i < hi, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let m = digits(b, &i, hi), i < hi, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        let whole = digits(b, &i, hi)
        var fraction: Int64 = 0
        var fractionDigits = false
        if i < hi, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            // Milliseconds, rounded half up on the next digit; further digits cannot change that.
            var scale: Int64 = 100
            var roundUp = false
            while i < hi, let d = digit(b[i]) {
                if scale > 0 { fraction += Int64(d) * scale; scale /= 10 } else if scale == 0 { roundUp = d >= 5; scale = -1 }
                fractionDigits = true
                i += 1
            }
            if roundUp { fraction += 1 }
        }
        guard i == hi, whole != nil || fractionDigits, h < 24, m < 60 else { return nil }
        let seconds = Int64(whole ?? 0)
        guard seconds <= 60 else { return nil }
        if let pm {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + (pm ? 12 : 0)
        }
        return Int64(h) * 3_600_000 + Int64(m) * 60_000 + seconds * 1000 + fraction
    }

    /// The value of one or more decimal digits at `i` (at most 9), moving `i` past them.
    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int) -> Int? {
        var value = 0, count = 0
        while i < end, let d = digit(b[i]) {
            guard count < 9 else { return nil }
            value = value * 10 + d
            count += 1
            i += 1
        }
        return count > 0 ? value : nil
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// The UTF-8 length of a space (tab or Unicode category Zs) starting at `i`, or nil.
    private static func spaceStarting(_ b: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int? {
        if b[i] == 0x20 || b[i] == 0x09 { return 1 }
        if end - i >= 2, isSpace(b[i], b[i + 1]) { return 2 }
        if end - i >= 3, isSpace(b[i], b[i + 1], b[i + 2]) { return 3 }
        return nil
    }

    /// The UTF-8 length of a space ending just before `end`, or nil.
    private static func spaceEnding(_ b: UnsafeBufferPointer<UInt8>, at end: Int, start: Int) -> Int? {
        if b[end - 1] == 0x20 || b[end - 1] == 0x09 { return 1 }
        if end - start >= 2, isSpace(b[end - 2], b[end - 1]) { return 2 }
        if end - start >= 3, isSpace(b[end - 3], b[end - 2], b[end - 1]) { return 3 }
        return nil
    }

    /// U+00A0.
    private static func isSpace(_ a: UInt8, _ b: UInt8) -> Bool { a == 0xC2 && b == 0xA0 }

    /// U+1680, U+2000–U+200A, U+202F, U+205F, U+3000.
    private static func isSpace(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        switch (a, b) {
        case (0xE1, 0x9A): return c == 0x80
        case (0xE2, 0x80): return (0x80...0x8A).contains(c) || c == 0xAF
        case (0xE2, 0x81): return c == 0x9F
        case (0xE3, 0x80): return c == 0x80
        default: return false
        }
    }
}
