import HealthPipeCore

/// Fitbit's account export writes `MM/DD/YY HH:MM:SS` (`01/31/21 06:00:15`) and `MM/DD/YY` dates,
/// read at fixed positions without creating a String (the heart-rate files hold millions of them).
/// Two-digit years are 2000–2099: Fitbit's first tracker shipped in 2009.
enum FitbitDateTime {
    /// Seconds since 1970 of the date-time read as if it were UTC; nil when it is not that layout.
    static func seconds(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 17, b[8] == UInt8(ascii: " "), b[11] == UInt8(ascii: ":"), b[14] == UInt8(ascii: ":"),
              let d = days(UnsafeRawBufferPointer(rebasing: b[0..<8])),
              let h = two(b, 9), let m = two(b, 12), let s = two(b, 15), h < 24, m < 60, s < 60 else { return nil }
        return d * 86_400 + Int64(h * 3600 + m * 60 + s)
    }

    /// Days since 1970-01-01 of `MM/DD/YY`; nil when it is not that layout or no such day.
    static func days(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 8, b[2] == UInt8(ascii: "/"), b[5] == UInt8(ascii: "/"),
              let month = two(b, 0), let day = two(b, 3), let yy = two(b, 6),
              (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: 2000 + yy, month: month) else { return nil }
        return CivilDate.days(year: 2000 + yy, month: month, day: day)
    }

    @inline(__always)
    fileprivate static func two(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        let a = b[i] &- 0x30, c = b[i + 1] &- 0x30
        return a < 10 && c < 10 ? Int(a) * 10 + Int(c) : nil
    }
}

extension FitbitDateTime {
    /// Seconds since 1970 of the sleep logs' `2018-05-16T02:49:00.000` (milliseconds optional) read as
    /// if it were UTC — it is the wearer's local time, without an offset; nil when not that layout.
    /// The date and time are Core's one ISO reader; only the length and the `T` are Fitbit's rule.
    static func isoSeconds(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 19 || (b.count == 23 && b[19] == UInt8(ascii: ".")), b[10] == UInt8(ascii: "T") else { return nil }
        return CivilDate.seconds(isoDateTime: b)
    }
}
