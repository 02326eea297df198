import HealthPipeCore

/// Nightscout's AR2 forecast (`lib/plugins/bgnow.js` + `ar2.js`, cgm-remote-monitor 15.0.7) as
/// restated in reference/analytics.md §6.1: four 5-minute buckets behind the newest reading, an
/// AR(2) in log space around 140 mg/dL, points rounded half up and clamped to 36…400 mg/dL.
public enum NightscoutAR2 {
    public static let bgRef = 140.0
    public static let coefficients = (prev: -0.723, curr: 1.716)

    /// A reading as AR2 sees it: time (UTC epoch seconds) and mg/dL.
    public struct Reading: Sendable, Hashable {
        public var time: Int64
        public var mgdl: Double
        public init(time: Int64, mgdl: Double) {
            self.time = time
            self.mgdl = mgdl
        }
    }

    /// The forecast for `steps` 5-minute steps (Nightscout emits 6), or nil when Nightscout makes
    /// none. `readings` are the subject's recent readings, newest LAST, none later than "now".
    /// Returns the time of the `recent` bucket (the forecast's origin) and the points.
    public static func forecast<C: BidirectionalCollection>(_ readings: C, steps: Int = 6)
        -> (origin: Int64, points: [Double])? where C.Element == Reading {
        guard let newest = readings.last else { return nil }
        // Buckets i = 0…3 cover [T − 150 − 300i, T + 150 − 300i] seconds; a reading on a shared edge
        // goes to the newer bucket (lower i), which scanning i upwards gives.
        var sums = [Double](repeating: 0, count: 4), counts = [Int](repeating: 0, count: 4)
        var mills = [Int64?](repeating: nil, count: 4), filled = [Bool](repeating: false, count: 4)
        let T = newest.time
        scan: for r in readings.reversed() {
            var placed = false
            for i in 0..<4 {
                let centre = T - Int64(300 * i)
                if r.time >= centre - 150 && r.time <= centre + 150 {
                    filled[i] = true
                    if r.mgdl > 39 {
                        sums[i] += r.mgdl
                        counts[i] += 1
                        if mills[i] == nil || r.time > mills[i]! { mills[i] = r.time }
                    }
                    placed = true
                    break
                }
            }
            if !placed { break scan }
        }
        guard let recentIndex = filled.firstIndex(of: true), counts[recentIndex] > 0, let recentMills = mills[recentIndex] else {
            return nil
        }
        let recentMean = sums[recentIndex] / Double(counts[recentIndex])
        guard recentMean >= 36 else { return nil }
        // previous = the first non-empty bucket whose mills are older than recent's.
        var previousMean: Double?
        var previousMills: Int64 = 0
        for i in (recentIndex + 1)..<4 where filled[i] {
            if let m = mills[i], m < recentMills {
                previousMean = sums[i] / Double(counts[i])
                previousMills = m
                break
            }
        }
        guard let previousMean else { return nil }
        let elapsed = Double(recentMills - previousMills) / 60
        let mean5MinsAgo = elapsed > 9 ? recentMean - (recentMean - previousMean) / elapsed * 5 : previousMean
        var prev = log(mean5MinsAgo / bgRef), curr = log(recentMean / bgRef)
        var points: [Double] = []
        points.reserveCapacity(steps)
        for _ in 0..<steps {
            (prev, curr) = (curr, coefficients.prev * prev + coefficients.curr * curr)
            points.append(min(400, max(36, (bgRef * exp(curr)).rounded(.toNearestOrAwayFromZero))))
        }
        return (recentMills, points)
    }

    /// Nightscout's loss: Σ over the six points of (log10(p / 120))² / 5 (six terms over five, as
    /// Nightscout computes it). WARN above 0.05, URGENT above 0.10.
    public static func averageLoss(_ points: [Double]) -> Double {
        points.prefix(6).reduce(0) { $0 + pow(log10($1 / 120), 2) / 5 }
    }
}

#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif
