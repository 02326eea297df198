import HealthPipeCore

/// Apple Health's date format, `yyyy-MM-dd HH:mm:ss ±HHMM`, parsed by hand from the attribute's
/// bytes (no DateFormatter): UTC epoch seconds plus the written offset.
enum HealthDate {
    struct Parsed: Equatable {
        var utc: Int64
        var offset: Int32
    }

    /// The last date's `yyyy-MM-dd` bytes with their day number: the dates of a record, and of the
    /// records around it, mostly share a day, whose checks and calendar arithmetic are then done once.
    struct DayMemo {
        fileprivate var head: UInt64 = 0
        fileprivate var tail: UInt16 = 0
        fileprivate var days: Int64?
    }

    static func parse(_ p: UnsafePointer<UInt8>, count n: Int) -> Parsed? {
        var memo = DayMemo()
        return parse(p, count: n, memo: &memo)
    }

    static func parse(_ p: UnsafePointer<UInt8>, count n: Int, memo: inout DayMemo) -> Parsed? {
        guard n >= 25 else { return nil }
        let head = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        let tail = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self)
        let days: Int64
        if let d = memo.days, memo.head == head, memo.tail == tail {
            days = d
        } else {
            guard let d = day(p) else { return nil }
            memo = DayMemo(head: head, tail: tail, days: d)
            days = d
        }
        guard p[10] == 0x20, p[13] == 0x3A, p[16] == 0x3A, p[19] == 0x20,
              let h = two(p, 11), let mi = two(p, 14), let s = two(p, 17), let oh = two(p, 21), let om = two(p, 23),
              h < 24, mi < 60, s < 61, oh < 24, om < 60 else { return nil }
        let sign: Int
        switch p[20] {
        case 0x2B: sign = 1
        case 0x2D: sign = -1
        default: return nil
        }
        let offset = sign * (oh * 3600 + om * 60)
        let local = days * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return Parsed(utc: local - Int64(offset), offset: Int32(offset))
    }

    /// Days since 1970-01-01 of the `yyyy-MM-dd` at `p`, nil unless it is a real date.
    private static func day(_ p: UnsafePointer<UInt8>) -> Int64? {
        guard p[4] == 0x2D, p[7] == 0x2D, let y1 = two(p, 0), let y2 = two(p, 2), let mo = two(p, 5), let d = two(p, 8),
              (1...12).contains(mo), d >= 1, d <= CivilDate.daysInMonth(year: y1 * 100 + y2, month: mo) else { return nil }
        return CivilDate.days(year: y1 * 100 + y2, month: mo, day: d)
    }

    @inline(__always) private static func two(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int? {
        let a = Int(p[i]) &- 48, b = Int(p[i + 1]) &- 48
        return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : nil
    }

    static func parse(_ text: String) -> Parsed? {
        var t = text
        return t.withUTF8 { b in b.baseAddress.flatMap { parse($0, count: b.count) } }
    }
}
