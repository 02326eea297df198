import HealthPipeCore

/// The order of day and month in a date whose year is last (`DD-MM-YYYY` or `MM-DD-YYYY`).
enum DateOrder: String, Sendable, CaseIterable {
    case dmy, mdy
}

/// Byte-level parsing of the numeric local dates and clock times CGM exports write
/// (`22-11-2024`, `2021/07/25`, `25.07.2021`, `07/25/21`; `21:35`, `00:32:50`, `05:38 PM`).
/// Shared by LibreView and CareLink; nothing here allocates.
enum NumericDateTime {
    /// The three digit groups of a date and the separator between them; `first` keeps its digit count
    /// so a four-digit first group reads as year-first.
    struct DateGroups {
        var first: Int, firstDigits: Int
        var second: Int
        var third: Int, thirdDigits: Int
        var separator: UInt8
        /// Index just past the date.
        var end: Int
    }

    /// Splits the date at the start of `b` into its groups; nil when it is not `n<sep>n<sep>n`.
    static func dateGroups(_ b: UnsafeRawBufferPointer) -> DateGroups? {
        var i = 0
        guard let (a, ad) = digits(b, &i, max: 4), i < b.count else { return nil }
        let sep = b[i]
        guard sep == UInt8(ascii: "-") || sep == UInt8(ascii: "/") || sep == UInt8(ascii: ".") else { return nil }
        i += 1
        guard let (m, _) = digits(b, &i, max: 2), i < b.count, b[i] == sep else { return nil }
        i += 1
        guard let (c, cd) = digits(b, &i, max: 4) else { return nil }
        return DateGroups(first: a, firstDigits: ad, second: m, third: c, thirdDigits: cd, separator: sep, end: i)
    }

    /// Days since 1970-01-01 for a complete date field. Year-first dates ignore `order`; otherwise `order`
    /// says which of the first two groups is the day. Two-digit years are 20xx.
    static func days(_ g: DateGroups, order: DateOrder) -> Int64? {
        let year: Int, month: Int, day: Int
        if g.firstDigits == 4 {
            (year, month, day) = (g.first, g.second, g.third)
            guard g.thirdDigits <= 2 else { return nil }
        } else {
            guard g.firstDigits <= 2, g.thirdDigits == 2 || g.thirdDigits == 4 else { return nil }
            year = g.thirdDigits == 2 ? 2000 + g.third : g.third
            (day, month) = order == .dmy ? (g.first, g.second) : (g.second, g.first)
        }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        return CivilDate.days(year: year, month: month, day: day)
    }

    /// Seconds since midnight for `H:MM`, `H:MM:SS` (a fraction is ignored) and either with ` AM`/` PM`.
    /// The whole field must be consumed (trailing spaces and CR allowed).
    static func clock(_ b: UnsafeRawBufferPointer, from start: Int = 0) -> Int64? {
        var i = start
        guard let (h, _) = digits(b, &i, max: 2), i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let (m, md) = digits(b, &i, max: 2), md == 2 else { return nil }
        var s = 0
        if i < b.count, b[i] == UInt8(ascii: ":") {
            i += 1
            guard let (v, vd) = digits(b, &i, max: 2), vd == 2 else { return nil }
            s = v
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                while i < b.count, b[i] &- 0x30 <= 9 { i += 1 }
            }
        }
        while i < b.count, b[i] == 0x20 { i += 1 }
        var hour = h
        if i + 1 < b.count, (b[i + 1] | 0x20) == UInt8(ascii: "m") {
            let a = b[i] | 0x20
            guard a == UInt8(ascii: "a") || a == UInt8(ascii: "p"), (1...12).contains(h) else { return nil }
            hour = h % 12 + (a == UInt8(ascii: "p") ? 12 : 0)
            i += 2
        }
        while i < b.count, b[i] == 0x20 || b[i] == 0x0D { i += 1 }
        guard i == b.count, hour < 24, m < 60, s < 60 else { return nil }
        return Int64(hour * 3600 + m * 60 + s)
    }

    /// Local wall-clock seconds for `date time` in one field (LibreView's `Device Timestamp`).
    static func localSeconds(_ b: UnsafeRawBufferPointer, order: DateOrder) -> Int64? {
        guard let g = dateGroups(b), let d = days(g, order: order) else { return nil }
        var i = g.end
        guard i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "T") else { return nil }
        while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "T") { i += 1 }
        guard let t = clock(b, from: i) else { return nil }
        return d * 86_400 + t
    }

    @inline(__always)
    private static func digits(_ b: UnsafeRawBufferPointer, _ i: inout Int, max: Int) -> (Int, Int)? {
        var v = 0, n = 0
        while n < max, i < b.count {
            let d = b[i] &- 0x30
            if d > 9 { break }
            v = v * 10 + Int(d)
            i += 1
            n += 1
        }
        return n == 0 ? nil : (v, n)
    }
}
