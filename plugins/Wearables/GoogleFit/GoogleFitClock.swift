import HealthPipeCore

/// The times of Google Fit's Takeout CSVs, read at fixed positions: a day `2025-02-03` (the `Date`
/// cell, or the per-day file's name) and a quarter hour's clock time with its offset,
/// `00:15:00.000+05:30` (milliseconds optional, `Z` for UTC).
enum GoogleFitClock {
    /// Days since 1970-01-01 of `YYYY-MM-DD`; nil for anything else or a day that does not exist.
    static func day(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = digits(b, 0, 4), let m = digits(b, 5, 2), let d = digits(b, 8, 2),
              (1...12).contains(m), d >= 1, d <= CivilDate.daysInMonth(year: Int(y), month: Int(m)) else { return nil }
        return CivilDate.days(year: Int(y), month: Int(m), day: Int(d))
    }

    /// Seconds after midnight and the offset in seconds of `HH:MM:SS[.fff](±HH:MM|Z)`.
    static func clock(_ b: UnsafeRawBufferPointer) -> (seconds: Int64, offset: Int32)? {
        guard b.count >= 9, b[2] == UInt8(ascii: ":"), b[5] == UInt8(ascii: ":"),
              let h = digits(b, 0, 2), let m = digits(b, 3, 2), let s = digits(b, 6, 2), h < 24, m < 60, s < 60 else { return nil }
        var i = 8
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let first = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            if i == first { return nil }
        }
        let seconds = h * 3600 + m * 60 + s
        if i == b.count - 1, b[i] == UInt8(ascii: "Z") { return (seconds, 0) }
        guard i + 6 == b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: ":"),
              let oh = digits(b, i + 1, 2), let om = digits(b, i + 4, 2), oh <= 14, om < 60 else { return nil }
        let offset = Int32(oh * 3600 + om * 60)
        return (seconds, b[i] == UInt8(ascii: "-") ? -offset : offset)
    }

    private static func digits(_ b: UnsafeRawBufferPointer, _ at: Int, _ n: Int) -> Int64? {
        var v: Int64 = 0
        for i in at..<at + n {
            let c = b[i] &- UInt8(ascii: "0")
            guard c <= 9 else { return nil }
            v = v * 10 + Int64(c)
        }
        return v
    }
}
