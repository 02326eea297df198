/// MAGE, moving-average version (Fernandes et al., J Diabetes Sci Technol 2022), as iglu computes it
/// with its defaults: a 5-minute grid (gaps ≤ 45 min bridged), short and long moving averages of 5
/// and 32 points, segments split at gaps over 180 min, direction "avg" (MAGE+ and MAGE− of every
/// segment, weighted by the segment's duration). See docs/analytics.md for the steps.
enum MovingAverageMAGE {
    static let shortWindow = 5, longWindow = 32
    static let maxGapPoints = 180 / 5

    /// `grid` is the flattened 5-minute day-by-day grid (NaN = no value).
    static func compute(grid: [Double]) -> Double {
        guard let first = grid.firstIndex(where: { !$0.isNaN }), let last = grid.lastIndex(where: { !$0.isNaN }) else { return .nan }
        // Split where consecutive values are more than 180 minutes apart; each segment starts at a value.
        var segments: [Range<Int>] = []
        var start = first, previousValid = first
        for i in first...last where i > first && !grid[i].isNaN {
            if i - previousValid > maxGapPoints {
                segments.append(start..<(previousValid + 1))
                start = i
            }
            previousValid = i
        }
        segments.append(start..<(last + 1))

        var weighted = 0.0, totalWeight = 0.0
        for s in segments {
            let duration = Double(s.count - 1)
            for amplitude in segmentAmplitudes(Array(grid[s])) {
                weighted += amplitude * duration
                totalWeight += duration
            }
        }
        return totalWeight > 0 ? weighted / totalWeight : .nan
    }

    /// MAGE+ and MAGE− of one segment (each omitted when it has no countable excursion).
    static func segmentAmplitudes(_ gl: [Double]) -> [Double] {
        let n = gl.count
        let valid = gl.filter { !$0.isNaN }
        guard !valid.isEmpty, n >= 7, n >= shortWindow else { return [] }
        let sd = Moments.sampleSD(valid)
        if sd < 1 { return [] }

        let short = movingAverage(gl, window: shortWindow)
        let long = movingAverage(gl, window: longWindow)
        var delta = (0..<n).map { short[$0] - long[$0] }

        // Crossings of the two averages, with the first and last points as bounds.
        var crossIds = [0]
        var crossIsMax = [delta[0] > 0]
        for i in delta.indices where delta[i] == 0 { delta[i] = .nan }
        for i in 1..<n {
            if !gl[i].isNaN && !gl[i - 1].isNaN && !delta[i].isNaN && !delta[i - 1].isNaN {
                if delta[i] * delta[i - 1] < 0 {
                    crossIds.append(i)
                    crossIsMax.append(!(delta[i] < delta[i - 1]))
                }
            } else if !delta[i].isNaN {
                // Across a gap compare with the delta at the last crossing.
                let previous = delta[crossIds[crossIds.count - 1]]
                if delta[i] * previous < 0 {
                    crossIds.append(i)
                    crossIsMax.append(!(delta[i] < previous))
                }
            }
        }
        crossIds.append(n - 1)
        crossIsMax.append(delta[n - 1] > 0)

        // The extreme value between consecutive crossings (searching on from the last extreme).
        let extremaCount = crossIds.count - 1
        var extrema = [Double](repeating: .nan, count: extremaCount)
        var at = [Int](repeating: 0, count: extremaCount)
        for i in 0..<extremaCount {
            let s1 = i == 0 ? crossIds[0] : at[i - 1]
            let s2 = crossIds[i + 1]
            var best = Double.nan, bestAt = s1
            for k in s1...s2 where !gl[k].isNaN {
                if best.isNaN || (crossIsMax[i] ? gl[k] > best : gl[k] < best) { best = gl[k]; bestAt = k }
            }
            extrema[i] = best
            at[i] = bestAt
        }

        let plus = excursions(extrema, sd: sd, rising: true)
        let minus = excursions(extrema, sd: sd, rising: false)
        var out: [Double] = []
        if !plus.isEmpty { out.append(plus.reduce(0, +) / Double(plus.count)) }
        if !minus.isEmpty { out.append(abs(minus.reduce(0, +) / Double(minus.count))) }
        return out
    }

    /// iglu's MAGE+ (rising) / MAGE− walk over the extrema: an excursion starts when the move from
    /// an earlier extreme exceeds one SD, rides on while the extreme keeps growing, and ends at a
    /// counter-move of more than one SD or at the last extreme.
    static func excursions(_ x: [Double], sd: Double, rising: Bool) -> [Double] {
        let n = x.count
        var heights: [Double] = []
        var j = 0, prevJ = 0
        while j < n {
            // The largest move into j from any extreme since prevJ (NaN poisons it, as in numpy).
            var best = Double.nan, bestAt = prevJ, poisoned = false
            for a in prevJ...j {
                let d = x[j] - x[a]
                if d.isNaN { poisoned = true; break }
                if best.isNaN || (rising ? d > best : d < best) { best = d; bestAt = a }
            }
            let starts = !poisoned && (rising ? best > sd : best < -sd)
            guard starts else { j += 1; continue }
            var k = j
            while k < n {
                if rising ? x[k] >= x[j] : x[k] <= x[j] { j = k }
                let back = x[k] - x[j]
                if (rising ? back < -sd : back > sd) || k == n - 1 {
                    heights.append(x[j] - x[bestAt])
                    if rising { prevJ = k } else { prevJ = j }
                    j = k
                    break
                }
                k += 1
            }
        }
        return heights
    }

    /// Trailing moving average over `window` points ignoring NaN (NaN when the window has no value);
    /// the first `window` points take the value at index window − 1 (or the last one for short segments).
    static func movingAverage(_ gl: [Double], window: Int) -> [Double] {
        let n = gl.count
        var out = [Double](repeating: .nan, count: n)
        // NaN as 0 in the sum (x + 0 is x exactly, and the sums start at +0) and valid points counted by
        // prefix: the inner loop has no branch. Summed afresh per window (≤ 32 points), in order, so no
        // drift from a running sum.
        var filled = [Double](repeating: 0, count: n)
        var validBefore = [Int](repeating: 0, count: n + 1)
        for i in 0..<n {
            let valid = !gl[i].isNaN
            if valid { filled[i] = gl[i] }
            validBefore[i + 1] = validBefore[i] + (valid ? 1 : 0)
        }
        filled.withUnsafeBufferPointer { g in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<n {
                    let lo = Swift.max(0, i - window + 1)
                    let count = validBefore[i + 1] - validBefore[lo]
                    guard count > 0 else { continue }
                    var sum = 0.0
                    for k in lo...i { sum += g[k] }
                    o[i] = sum / Double(count)
                }
            }
        }
        let fill = window > n ? out[n - 1] : out[window - 1]
        for i in 0..<Swift.min(window, n) { out[i] = fill }
        return out
    }
}
