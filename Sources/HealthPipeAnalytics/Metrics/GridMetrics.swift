import HealthPipeCore

/// Metrics computed on the day-by-day grid (docs/analytics.md §2.2), always on a fixed step.
enum GridMetrics {
    /// CONGA(n): sample SD of x[k + L] − x[k] over the flattened grid, L = round(60 / step) · n,
    /// over the pairs where both exist; NaN with fewer than two pairs.
    static func conga(_ grid: DayByDayGrid, hours: Int) -> Double {
        let lag = Int((60.0 / Double(grid.step / 60)).rounded(.toNearestOrEven)) * hours
        let x = grid.values
        guard lag > 0, x.count > lag else { return .nan }
        var diffs: [Double] = []
        for k in 0..<(x.count - lag) {
            let d = x[k + lag] - x[k]
            if !d.isNaN { diffs.append(d) }
        }
        return diffs.count < 2 ? .nan : Moments.sampleSD(diffs)
    }

    /// MODD: mean of |x[k + S] − x[k]| with S = one day of grid points, over pairs where both exist.
    static func modd(_ grid: DayByDayGrid) -> Double {
        let lag = grid.perDay
        let x = grid.values
        guard x.count > lag else { return .nan }
        var sum = 0.0, count = 0
        for k in 0..<(x.count - lag) {
            let d = x[k + lag] - x[k]
            if !d.isNaN { sum += abs(d); count += 1 }
        }
        return count == 0 ? .nan : sum / Double(count)
    }

    /// AGP: 5/25/50/75/95th percentiles (linear) of each time-of-day column across the grid's days,
    /// missing values ignored. Column j is minute (j + 1)·step of the day; the last is 24:00, reported as 0.
    static func agp(_ grid: DayByDayGrid) -> [AGPPoint] {
        var out: [AGPPoint] = []
        out.reserveCapacity(grid.perDay)
        let stepMinutes = Int(grid.step / 60)
        for j in 0..<grid.perDay {
            var column: [Double] = []
            for d in 0..<grid.days where !grid[d, j].isNaN { column.append(grid[d, j]) }
            guard !column.isEmpty else { continue }
            column.sort()
            out.append(AGPPoint(minuteOfDay: ((j + 1) * stepMinutes) % 1440, count: column.count,
                                p05: Quantile.type7(sorted: column, 0.05), p25: Quantile.type7(sorted: column, 0.25),
                                p50: Quantile.type7(sorted: column, 0.5), p75: Quantile.type7(sorted: column, 0.75),
                                p95: Quantile.type7(sorted: column, 0.95)))
        }
        return out.sorted { $0.minuteOfDay < $1.minuteOfDay }
    }
}
