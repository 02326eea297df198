/// The one rule for the local day of an instant, and the UTC window that surely holds a run of local
/// days. A record keeps its UTC instant and the offset in force where it was taken; its local day
/// is `floor((utc + offset) / 86 400)` days since 1970-01-01, whatever zone reads it later. Offsets
/// lie within ±14 h (UTC−12 … UTC+14), so the instants of local days `first...last` lie within
/// `first·86 400 − 14 h ..< (last + 1)·86 400 + 14 h`: a reader takes that window by key and keeps
/// the records whose own local day is in the run.
public enum LocalDays {
    /// The widest offset from UTC any zone has.
    public static let maxOffset: Int64 = 14 * 3600

    /// Local seconds since the epoch of a UTC instant.
    @inline(__always)
    public static func local(_ utc: Int64, _ offset: Int32) -> Int64 { utc + Int64(offset) }

    /// The local day (days since 1970-01-01) of a UTC instant taken at `offset` seconds from UTC.
    @inline(__always)
    public static func day(_ utc: Int64, _ offset: Int32) -> Int64 { CivilDate.floorDiv(utc + Int64(offset), 86_400) }

    /// The same with the offset as a whole number of seconds (a zone's offset looked up at `utc`).
    @inline(__always)
    public static func day(_ utc: Int64, offsetSeconds: Int) -> Int64 { CivilDate.floorDiv(utc + Int64(offsetSeconds), 86_400) }

    /// UTC seconds `from ..< to` that hold every instant of local days `firstDay...lastDay`.
    public static func utcBounds(firstDay: Int64, lastDay: Int64) -> (from: Int64, to: Int64) {
        (firstDay * 86_400 - maxOffset, (lastDay + 1) * 86_400 + maxOffset)
    }

    /// The same as a closed range of UTC seconds.
    public static func utcBounds(_ days: ClosedRange<Int64>) -> ClosedRange<Int64> {
        let b = utcBounds(firstDay: days.lowerBound, lastDay: days.upperBound)
        return b.from...(b.to - 1)
    }
}
