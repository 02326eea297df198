import HealthPipeCore

/// The whole day-by-day matrix of one period's readings: `days` rows × `perDay` columns, NaN where
/// there is no value. Row d, column j holds local time origin + d days + (j + 1)·step.
public struct DayByDayGrid: Sendable {
    public let origin: Int64
    public let step: Int64
    public let days: Int
    public let perDay: Int
    /// Flattened row by row.
    public var values: [Double]

    /// Builds the grid from readings sorted by local time (duplicate times keep the first).
    public init(times: [Int64], values readings: [Double], stepSeconds: Int64 = 300, maxGapSeconds: Int64 = 45 * 60) {
        var r = GridResampler(stepSeconds: stepSeconds, maxGapSeconds: maxGapSeconds)
        var points: [(Int64, Double)] = []
        points.reserveCapacity(readings.count * 2)
        for i in readings.indices { r.add(time: times[i], value: readings[i]) { points.append(($0, $1)) } }
        step = stepSeconds
        perDay = Int(86_400 / stepSeconds)
        origin = r.origin ?? 0
        let n = Int(r.pointCount)
        days = n / perDay
        var grid = [Double](repeating: .nan, count: n)
        for (k, v) in points where k >= 1 && k <= n { grid[Int(k) - 1] = v }
        values = grid
    }

    public var firstDay: Int64 { CivilDate.floorDiv(origin, 86_400) }
    public subscript(day: Int, column: Int) -> Double { values[day * perDay + column] }
}
