import Foundation
@testable import HealthPipeAnalytics
import Testing

/// The metric kernels made faster for the import must give bit for bit what the plain formulas give.
@Suite struct MetricKernelsTests {
    /// The moving average as first written: each window summed afresh, NaN skipped by a branch.
    static func plainMovingAverage(_ gl: [Double], window: Int) -> [Double] {
        let n = gl.count
        var out = [Double](repeating: .nan, count: n)
        for i in 0..<n {
            var sum = 0.0, count = 0
            for k in max(0, i - window + 1)...i where !gl[k].isNaN { sum += gl[k]; count += 1 }
            out[i] = count > 0 ? sum / Double(count) : .nan
        }
        let fill = window > n ? out[n - 1] : out[window - 1]
        for i in 0..<min(window, n) { out[i] = fill }
        return out
    }

    @Test func movingAverageIsThePlainOneBitForBit() {
        var rng = SystemRandomNumberGenerator()
        for trial in 0..<300 {
            let n = Int.random(in: 1...400, using: &rng)
            let gapShare = [0.0, 0.05, 0.5, 0.95, 1.0][trial % 5]
            let grid: [Double] = (0..<n).map { _ in
                Double.random(in: 0..<1, using: &rng) < gapShare ? .nan : Double.random(in: 39...401, using: &rng)
            }
            for window in [1, MovingAverageMAGE.shortWindow, MovingAverageMAGE.longWindow, 500] {
                let fast = MovingAverageMAGE.movingAverage(grid, window: window)
                let plain = Self.plainMovingAverage(grid, window: window)
                #expect(fast.map(\.bitPattern) == plain.map(\.bitPattern), "n \(n), window \(window)")
            }
        }
    }

    @Test func riskExponentIsTheFormulaBitForBit() {
        var values = (1...1000).map(Double.init) + [0.5, 1.5, 39.6, 99.099, 400.25, 999.5, 1000.5, 1001, 1500]
        var rng = SystemRandomNumberGenerator()
        values += (0..<1000).map { _ in Double.random(in: 1...1200, using: &rng) }
        for g in values {
            #expect(ReadingMetrics.riskExponent(g).bitPattern == (pow(log(g), 1.084) - 5.381).bitPattern, "\(g)")
            #expect(ReadingMetrics.riskScale(g).bitPattern == (1.509 * (pow(log(g), 1.084) - 5.381)).bitPattern, "\(g)")
        }
    }
}
