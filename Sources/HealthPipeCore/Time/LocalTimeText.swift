import Foundation

/// A moment as a person types it for a manual entry: `now`, `20:00` (today), `2024-03-05 20:00`,
/// `2024-03-05T20:00:30`, `2024-03-05` (midnight), or any of those with an offset (`+01:00`, `Z`).
/// Naive times are local time in `zone`; "now" and "today" come from `now` (UTC seconds).
public enum LocalTimeText {
    static let patterns = ["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"]
        .map { try! TimestampPattern($0) }
    static let clock = [try! TimestampPattern("%Y-%m-%dT%H:%M:%S"), try! TimestampPattern("%Y-%m-%dT%H:%M")]

    public static func parse(_ text: String, zone: TimeZone, now: Int64) -> ZoneResolver.Resolved? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "now" { return at(utc: now, zone: zone) }
        var resolver = ZoneResolver(zone: zone)
        if !t.contains("-"), t.contains(":") {
            // A time of day: today's, in the zone.
            let today = LocalDays.day(now, offset(of: zone, at: now))
            for p in clock {
                if let parsed = p.parse(CivilDate.isoDate(fromDays: today) + "T" + t) { return try? resolver.resolve(local: parsed.seconds) }
            }
            return nil
        }
        for p in patterns {
            guard let parsed = p.parse(t) else { continue }
            if let o = parsed.offset { return ZoneResolver.Resolved(utc: parsed.seconds - Int64(o), offset: o, flags: []) }
            return try? resolver.resolve(local: parsed.seconds)
        }
        return nil
    }

    /// True when the text ends in an offset (`Z`, `+01:00`, `-0500`), so no zone is needed.
    public static func hasOffset(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.count > 16 else { return false }
        if t.hasSuffix("Z") { return true }
        // Past the date's own dashes: a sign in the last six characters (`-08:00`, `+0100`, `-05`).
        let tail = Array(t.suffix(6))
        return tail.contains("+") || tail.contains("-")
    }

    /// The instant with its local offset in `zone`.
    public static func at(utc: Int64, zone: TimeZone) -> ZoneResolver.Resolved {
        ZoneResolver.Resolved(utc: utc, offset: offset(of: zone, at: utc), flags: [])
    }

    public static func offset(of zone: TimeZone, at utc: Int64) -> Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc))))
    }

    /// `2024-03-05T20:00:00+01:00`: an instant with its offset, as the entry source reads it back.
    public static func format(utc: Int64, offset: Int32) -> String {
        let local = CivilDate.isoDateTime(seconds: utc + Int64(offset))
        let sign = offset < 0 ? "-" : "+", a = abs(Int(offset))
        let hh = a / 3600, mm = a / 60 % 60
        return local + sign + (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }

    /// `2024-03-05 20:00` (seconds when not zero): the local wall-clock time, for messages and lists.
    public static func wallClock(utc: Int64, offset: Int32) -> String {
        let s = CivilDate.isoDateTime(seconds: utc + Int64(offset))
        let short = s.replacingOccurrences(of: "T", with: " ")
        return short.hasSuffix(":00") ? String(short.dropLast(3)) : short
    }
}
