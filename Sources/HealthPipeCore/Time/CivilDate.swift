/// Calendar arithmetic on the proleptic Gregorian calendar, done by hand so hot paths never touch
/// `DateFormatter` or `Calendar` (Howard Hinnant's days-from-civil algorithm).
public enum CivilDate {
    /// Days since 1970-01-01 for a civil date.
    @inlinable
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number (inverse of `days`).
    public static func date(fromDays z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        default: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        }
    }

    /// `YYYY-MM-DD` for a day number.
    /// "2024-01-31" → days since 1970-01-01; nil when it is not a valid date.
    public static func days(fromISO text: some StringProtocol) -> Int64? { days(fromISO: String(text)) }

    /// Read byte by byte: stores read a day column per row.
    public static func days(fromISO text: String) -> Int64? {
        var text = text
        return text.withUTF8 { days(fromISOBytes: $0) }
    }

    public static func days(fromISOBytes u: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard u.count == 10 else { return nil }
        var y = 0, m = 0, d = 0
        for i in 0..<10 {
            let c = u[i]
            if i == 4 || i == 7 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            let v = Int(c - UInt8(ascii: "0"))
            switch i {
            case 0..<4: y = y * 10 + v
            case 5, 6: m = m * 10 + v
            default: d = d * 10 + v
            }
        }
        guard (1...12).contains(m), d >= 1, d <= daysInMonth(year: y, month: m) else { return nil }
        return days(year: y, month: m, day: d)
    }

    public static func isoDate(fromDays d: Int64) -> String {
        let (y, m, day) = date(fromDays: d)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(day, 2)
    }

    /// Wall-clock seconds since the epoch of the `YYYY-MM-DDThh:mm:ss` (or a space for `T`) that the first
    /// 19 bytes of `b` hold; nil when `b` is shorter, any byte is out of place or a field out of range.
    /// A leap second (`:60`) reads as `:59`. The one reader of this form at fixed positions: timestamp
    /// patterns and the JSON formats' ISO 8601 times read their date and time through it.
    public static func seconds(isoDateTime b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count >= 19 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let d = b[i] &- 0x30
            return d <= 9 ? Int(d) : nil
        }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              b[10] == UInt8(ascii: "T") || b[10] == 0x20,
              let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3),
              let mo0 = digit(5), let mo1 = digit(6), let d0 = digit(8), let d1 = digit(9),
              let h0 = digit(11), let h1 = digit(12), let mi0 = digit(14), let mi1 = digit(15),
              let s0 = digit(17), let s1 = digit(18) else { return nil }
        let year = y0 * 1000 + y1 * 100 + y2 * 10 + y3, month = mo0 * 10 + mo1, day = d0 * 10 + d1
        let hour = h0 * 10 + h1, minute = mi0 * 10 + mi1, second = s0 * 10 + s1
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 61 else { return nil }
        return days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
    }

    /// `YYYY-MM-DDTHH:MM:SS` for seconds since the epoch (no zone suffix).
    public static func isoDateTime(seconds: Int64) -> String {
        let d = floorDiv(seconds, 86_400)
        let s = seconds - d * 86_400
        return isoDate(fromDays: d) + "T" + pad(Int(s / 3600), 2) + ":" + pad(Int(s / 60 % 60), 2) + ":" + pad(Int(s % 60), 2)
    }

    @inlinable
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
