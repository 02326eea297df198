/// Local days as a refresh reads them: the ranges around pending days (their UTC window is
/// `LocalDays.utcBounds`). One rule for every store.
public enum LocalDayRanges {
    /// Inclusive ranges around sorted local `days`, `margin` wide on each side, merged.
    public static func around(_ days: [Int64], margin: Int64) -> [ClosedRange<Int64>] {
        var out: [ClosedRange<Int64>] = []
        for d in days {
            let r = (d - margin)...(d + margin)
            if let last = out.last, r.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
