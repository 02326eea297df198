/// Local days as a refresh reads them: the ranges around pending days, and the UTC seconds that can
/// hold a range of local days (local offsets lie within ±14 h: UTC−12 … UTC+14). One rule for every
/// store.
public enum LocalDayRanges {
    public static let maxOffset: Int64 = 14 * 3600

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

    public static func utcBounds(_ days: ClosedRange<Int64>) -> ClosedRange<Int64> {
        (days.lowerBound * 86_400 - maxOffset)...((days.upperBound + 1) * 86_400 - 1 + maxOffset)
    }
}
