import HealthPipeCore

/// Number and time text for views, written by hand: a page holds thousands of coordinates, and
/// `String(format:)` / `DateFormatter` are far too slow for that (and differ between platforms).
public enum Fmt {
    /// `v` with exactly `decimals` digits after the point (half away from zero): 6.1, 110, -0.5.
    public static func fixed(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return "–" }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * Double(scale)).rounded()
        // Beyond the integers (an older store's 1.7e308) Swift's own text, never a trapping conversion.
        guard scaled < 9.2e18 else { return String(v) }
        let n = Int64(scaled)
        let sign = v < 0 && n != 0 ? "-" : ""
        let whole = String(n / scale)
        guard decimals > 0 else { return sign + whole }
        var fraction = String(n % scale)
        while fraction.count < decimals { fraction = "0" + fraction }
        return sign + whole + "." + fraction
    }

    /// An amount with at most `decimals` decimals and no trailing zeros: 45, 4.5, 0.25.
    public static func amount(_ v: Double, _ decimals: Int = 2) -> String {
        var t = fixed(v, decimals)
        guard t.utf8.contains(UInt8(ascii: ".")) else { return t }
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        return t
    }

    /// A coordinate: one decimal, trailing ".0" dropped (keeps SVG small).
    public static func coord(_ v: Double) -> String {
        var m = Markup(capacity: 8)
        m.coord(v)
        return m.text
    }

    /// A percentage as the AGP report prints it: whole numbers, "<1" for small non-zero shares.
    public static func percent(_ v: Double) -> String {
        if v > 0 && v < 0.5 { return "<1" }
        return fixed(v, 0)
    }

    /// Minutes as "2h 53min", "58min", "0min".
    public static func duration(minutes: Double) -> String {
        let m = Int(minutes.rounded())
        if m < 60 { return "\(m)min" }
        return "\(m / 60)h" + (m % 60 == 0 ? "" : " \(m % 60)min")
    }

    /// "HH:MM" of local seconds since midnight (any day).
    public static func clock(localSeconds s: Int64) -> String {
        var m = Markup(capacity: 5)
        m.clock(localSeconds: s)
        return m.text
    }

    static func pad2(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let longMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// Monday = 0 (1970-01-01 was a Thursday).
    public static func weekdayIndex(_ day: Int64) -> Int {
        let r = (day + 3) % 7
        return Int(r < 0 ? r + 7 : r)
    }

    public static func weekday(_ day: Int64) -> String { weekdays[weekdayIndex(day)] }

    /// "Thu 20 Apr 1961".
    public static func shortDate(_ day: Int64) -> String {
        let (y, m, d) = CivilDate.date(fromDays: day)
        return weekday(day) + " " + String(d) + " " + months[m - 1] + " " + String(y)
    }

    /// "Thursday 20 April 1961".
    public static func longDate(_ day: Int64) -> String {
        let (y, m, d) = CivilDate.date(fromDays: day)
        return longWeekdays[weekdayIndex(day)] + " " + String(d) + " " + longMonths[m - 1] + " " + String(y)
    }

    /// "20 Apr".
    public static func dayMonth(_ day: Int64) -> String {
        let (_, m, d) = CivilDate.date(fromDays: day)
        return String(d) + " " + months[m - 1]
    }
}
