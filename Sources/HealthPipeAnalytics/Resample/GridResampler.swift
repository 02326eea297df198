import HealthPipeCore

/// Streams one series (one subject and metric, readings in time order) onto iglu's day-by-day grid
/// (`CGMS2DayByDay`, R-compatible mode; docs/analytics.md "Resampling"):
/// - grid points are origin + k·step for k ≥ 1, origin = local midnight at or before the first
///   reading, so each day covers (00:00, 24:00] and the 24:00 point belongs to the earlier day;
/// - values are linear interpolations between neighbouring readings; a point on a reading takes it;
/// - no value before the first or after the last reading, nor strictly inside a gap longer than `maxGap`.
/// Holds only the previous reading, so memory is constant.
public struct GridResampler: Sendable {
    /// Grid step and the longest bridged gap, in seconds.
    public let step: Int64
    public let maxGap: Int64
    /// Local midnight before the first reading (naive local seconds); nil until the first reading.
    public private(set) var origin: Int64?
    /// Index k of the next grid point not yet decided.
    public private(set) var nextIndex: Int64 = 1
    private var previous: (time: Int64, value: Double)?

    public init(stepSeconds: Int64 = 300, maxGapSeconds: Int64 = 45 * 60) {
        precondition(stepSeconds > 0 && 86_400 % stepSeconds == 0, "the grid step must divide a day")
        step = stepSeconds
        maxGap = maxGapSeconds
    }

    /// The time of the last reading accepted.
    public var lastTime: Int64? { previous?.time }

    /// Adds the next reading (local seconds). Calls `emit(k, value)` for every grid point decided by
    /// it that has a value. Returns false, and ignores the reading, when it is not after the last one.
    @discardableResult
    public mutating func add(time: Int64, value: Double, emit: (Int64, Double) -> Void) -> Bool {
        guard let prev = previous else {
            let o = CivilDate.floorDiv(time, 86_400) * 86_400
            origin = o
            nextIndex = 1
            while o + nextIndex * step <= time {
                if o + nextIndex * step == time { emit(nextIndex, value) }
                nextIndex += 1
            }
            previous = (time, value)
            return true
        }
        guard time > prev.time else { return false }
        let o = origin!
        let bridged = time - prev.time <= maxGap
        let span = Double(time - prev.time)
        while o + nextIndex * step <= time {
            let t = o + nextIndex * step
            if t == time {
                emit(nextIndex, value)
            } else if bridged {
                emit(nextIndex, prev.value + (value - prev.value) * (Double(t - prev.time) / span))
            }
            nextIndex += 1
        }
        previous = (time, value)
        return true
    }

    /// Number of grid points: whole days from the origin to the midnight at or after the last reading.
    public var pointCount: Int64 {
        guard let o = origin, let last = previous?.time else { return 0 }
        let end = -CivilDate.floorDiv(-last, 86_400) * 86_400
        return (end - o) / step
    }

    /// The local time of grid point k.
    public func time(ofIndex k: Int64) -> Int64 { origin! + k * step }
}

/// iglu's automatic grid step: the most common difference between consecutive reading times
/// (ties go to the smaller), in whole minutes, truncated. On jittered data this is 3 or 4 minutes,
/// which is why HealthPipe always uses a fixed step; this exists to explain the reference values.
public enum AutomaticGridStep {
    public static func minutes(sortedTimes times: [Int64]) -> Int? {
        guard times.count > 1 else { return nil }
        var counts: [Int64: Int] = [:]
        for i in 1..<times.count { counts[times[i] - times[i - 1], default: 0] += 1 }
        let best = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }!
        return Int(best.key / 60)
    }
}
