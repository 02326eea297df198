/// The one home for the instants and durations a record may carry: 1960-01-01 up to (not
/// including) 2100-01-01, UTC, and an end no earlier than the start. A value outside is a broken
/// clock, an epoch in the wrong unit, a JavaScript date limit (275760-09-13) or a year 0000 — and
/// once stored it breaks every view built on days. `RecordGate` applies it to every source's
/// records; views use `clampedDay`. The lower bound is 1960, not the Unix epoch, because the
/// shipped synthetic Libre and Clarity samples are dated April 1961 (Gagarin's flight).
public enum PlausibleTime {
    /// 1960-01-01T00:00:00Z.
    public static let earliest: Int64 = -315_619_200
    /// 2100-01-01T00:00:00Z (exclusive).
    public static let latest: Int64 = 4_102_444_800
    public static let earliestDay: Int64 = earliest / 86_400
    public static let latestDay: Int64 = latest / 86_400

    /// Nil when `seconds` (UTC epoch) is plausible, else why not.
    public static func problem(_ seconds: Int64, what: String = "time") -> String? {
        guard seconds >= earliest, seconds < latest else {
            return "\(what) \(describe(seconds)) is outside the plausible dates 1960-01-01 to 2100-01-01"
        }
        return nil
    }

    /// Nil when both instants are plausible and `end` is not before `start`, else why not.
    public static func problem(start: Int64, end: Int64) -> String? {
        if let p = problem(start, what: "start") { return p }
        if let p = problem(end, what: "end") { return p }
        guard end >= start else { return "ends \(end - start) s before it starts" }
        return nil
    }

    /// How far past the clock a person's own entry or report may lie, typed or imported from
    /// health-reports JSON (one rule for both): more is a typing mistake, not a plan.
    public static let aheadOfClock: Int64 = 86_400

    /// True when a person's entry at `utc` lies more than `aheadOfClock` past `now`.
    public static func isTooFarAhead(_ utc: Int64, now: Int64) -> Bool { utc > now + aheadOfClock }

    /// Nil when a person's typed or imported instant (`what`: start, end, time) is not too far ahead,
    /// else the reason, naming it on the wall clock it was written in. Start and end alike: an
    /// illness "ending" next month is as much a typing mistake as one starting then.
    public static func aheadProblem(_ what: String, utc: Int64, offset: Int32, now: Int64) -> String? {
        guard isTooFarAhead(utc, now: now) else { return nil }
        return "\(what) \(LocalTimeText.wallClock(utc: utc, offset: offset)) is more than a day in the future"
    }

    /// A local day number held inside the plausible window (for views reading an old store).
    public static func clampedDay(_ day: Int64) -> Int64 { min(max(day, earliestDay), latestDay) }

    /// The instant as a date when it is near the window, else the raw number (no calendar maths on
    /// absurd values).
    static func describe(_ seconds: Int64) -> String {
        guard seconds > -62_135_596_800 * 2, seconds < 253_402_300_800 * 2 else { return "\(seconds) s since 1970" }
        return CivilDate.isoDate(fromDays: CivilDate.floorDiv(seconds, 86_400))
    }
}
