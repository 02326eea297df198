import HealthPipeCore

/// Apple Health's date format, `yyyy-MM-dd HH:mm:ss ±HHMM`, parsed by hand from the attribute's
/// bytes (no DateFormatter): UTC epoch seconds plus the written offset.
enum HealthDate {
    struct Parsed: Equatable {
        var utc: Int64
        var offset: Int32
    }

    static func parse(_ p: UnsafePointer<UInt8>, count n: Int) -> Parsed? {
        guard n >= 25 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let d = Int(p[i]) &- 48
            return d >= 0 && d <= 9 ? d : nil
        }
        @inline(__always) func two(_ i: Int) -> Int? {
            guard let a = digit(i), let b = digit(i + 1) else { return nil }
            return a * 10 + b
        }
        guard p[4] == 0x2D, p[7] == 0x2D, p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A, p[19] == 0x20,
              let y1 = two(0), let y2 = two(2), let mo = two(5), let d = two(8),
              let h = two(11), let mi = two(14), let s = two(17), let oh = two(21), let om = two(23),
              (1...12).contains(mo), d >= 1, d <= CivilDate.daysInMonth(year: y1 * 100 + y2, month: mo),
              h < 24, mi < 60, s < 61, oh < 24, om < 60 else { return nil }
        let sign: Int
        switch p[20] {
        case 0x2B: sign = 1
        case 0x2D: sign = -1
        default: return nil
        }
        let offset = sign * (oh * 3600 + om * 60)
        let local = CivilDate.days(year: y1 * 100 + y2, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return Parsed(utc: local - Int64(offset), offset: Int32(offset))
    }

    static func parse(_ text: String) -> Parsed? {
        var t = text
        return t.withUTF8 { b in b.baseAddress.flatMap { parse($0, count: b.count) } }
    }
}
