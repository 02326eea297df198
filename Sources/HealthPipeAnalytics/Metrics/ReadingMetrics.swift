import HealthPipeCore
import Foundation

/// The reading-based metrics of docs/analytics.md §2.1: every reading counts once, whatever the
/// spacing ("% time in range" is the share of readings). Values are mg/dL.
enum ReadingMetrics {
    /// Appends count, mean, SD, CV, quartiles, GMI, eA1c, band shares, LBGI/HBGI, J-index, GRI.
    static func append(values v: [Double], to out: inout [NamedValue]) {
        let n = Double(v.count)
        guard !v.isEmpty else { return }
        let mean = Moments.mean(v)
        let sd = Moments.sampleSD(v)
        let sorted = v.sorted()
        out.append(NamedValue("n_readings", n))
        out.append(NamedValue("mean", mean))
        out.append(NamedValue("sd", sd))
        out.append(NamedValue("cv_pct", 100 * sd / mean))
        out.append(NamedValue("min", sorted[0]))
        out.append(NamedValue("q1", Quantile.type7(sorted: sorted, 0.25)))
        out.append(NamedValue("median", Quantile.type7(sorted: sorted, 0.5)))
        out.append(NamedValue("q3", Quantile.type7(sorted: sorted, 0.75)))
        out.append(NamedValue("max", sorted[sorted.count - 1]))
        out.append(NamedValue("gmi_pct", 3.31 + 0.02392 * mean))
        out.append(NamedValue("ea1c_pct", (46.7 + mean) / 28.7))

        // Band semantics of §3: strict below 54/70 and above 180/250, inclusive 70–180.
        var below54 = 0, below70 = 0, above180 = 0, above250 = 0, inRange = 0, inTightRange = 0
        var lowRisk = 0.0, highRisk = 0.0
        for g in v {
            if g < 54 { below54 += 1 }
            if g < 70 { below70 += 1 }
            if g > 180 { above180 += 1 }
            if g > 250 { above250 += 1 }
            if g >= 70 && g <= 180 { inRange += 1 }
            if g >= 70 && g <= 140 { inTightRange += 1 }
            let f = riskScale(g)
            if f < 0 { lowRisk += f * f } else { highRisk += f * f }
        }
        let pct = { (c: Int) in 100 * Double(c) / n }
        let vlow = pct(below54), low = pct(below70) - pct(below54)
        let vhigh = pct(above250), high = pct(above180) - pct(above250)
        out.append(NamedValue("tbr_lt54_pct", vlow))
        out.append(NamedValue("tbr_54_69_pct", low))
        out.append(NamedValue("tir_70_180_pct", pct(inRange)))
        // Time in tight range (70–140 mg/dL, 3.9–7.8 mmol/L), as iglu's in_range_percent(target_ranges = [[70, 140]]).
        out.append(NamedValue("titr_70_140_pct", pct(inTightRange)))
        out.append(NamedValue("tar_181_250_pct", high))
        out.append(NamedValue("tar_gt250_pct", vhigh))
        out.append(NamedValue("lbgi", 10 * lowRisk / n))
        out.append(NamedValue("hbgi", 10 * highRisk / n))
        out.append(NamedValue("j_index", 0.001 * (mean + sd) * (mean + sd)))
        out.append(NamedValue("gri", Swift.min(100, 3.0 * vlow + 2.4 * low + 1.6 * vhigh + 0.8 * high)))
    }

    /// Kovatchev's symmetrised risk scale f(g) = 1.509 · ((ln g)^1.084 − 5.381).
    static func riskScale(_ g: Double) -> Double { 1.509 * riskExponent(g) }

    /// (ln g)^1.084 − 5.381, the part of the risk scale LBGI/HBGI and ADRR share. Whole mg/dL values
    /// (nearly every reading) come from a table made once with the same expression, so every result
    /// is bit for bit what `pow` gives; `pow` and `log` were a quarter of a day's metric time.
    @inline(__always)
    static func riskExponent(_ g: Double) -> Double {
        if g >= 1, g <= Double(wholeRiskExponents.count - 1), let i = Int(exactly: g) { return wholeRiskExponents[i] }
        return pow(log(g), 1.084) - 5.381
    }

    private static let wholeRiskExponents: [Double] = (0...1000).map { pow(log(Double($0)), 1.084) - 5.381 }

    /// ADRR: per local calendar day, 22.77 · (max(b, 0)² + min(b, 0)²) of that day's extreme
    /// b = (ln g)^1.084 − 5.381 values, averaged over the days.
    static func adrr(days: [Int64], values v: [Double]) -> Double {
        guard !v.isEmpty else { return .nan }
        var total = 0.0, dayCount = 0
        var i = 0
        while i < v.count {
            var hi = -Double.infinity, lo = Double.infinity
            let d = days[i]
            while i < v.count && days[i] == d {
                let b = riskExponent(v[i])
                hi = Swift.max(hi, b)
                lo = Swift.min(lo, b)
                i += 1
            }
            total += 22.77 * (Swift.max(hi, 0) * Swift.max(hi, 0) + Swift.min(lo, 0) * Swift.min(lo, 0))
            dayCount += 1
        }
        return total / Double(dayCount)
    }

    /// iglu's step dt0 for active %: the median interval in minutes, rounded half to even; nil without two readings.
    static func activeStepMinutes(sortedTimes t: [Int64]) -> Double? {
        guard t.count > 1 else { return nil }
        var gaps = (1..<t.count).map { Double(t[$0] - t[$0 - 1]) / 60 }
        gaps.sort()
        let median = gaps.count % 2 == 1 ? gaps[gaps.count / 2] : (gaps[gaps.count / 2 - 1] + gaps[gaps.count / 2]) / 2
        let dt0 = median.rounded(.toNearestOrEven)
        return dt0 > 0 ? dt0 : nil
    }

    /// Active % over a whole period of local days, as iglu's active_percent(range_type = "manual",
    /// ndays, consistent_end_date = the period's end): readings from the period's first midnight to its
    /// end (inclusive) over the readings a CGM of step dt0 makes in that time. A sparse fortnight is
    /// 18 %, not the 100 % its few complete days give alone. Capped at 100 (several readings per step,
    /// e.g. Libre scans between historic readings, would exceed it; iglu does not cap).
    static func activePercent(sortedTimes t: [Int64], firstDay: Int64, lastDay: Int64) -> Double {
        guard let dt0 = activeStepMinutes(sortedTimes: t), lastDay >= firstDay else { return t.isEmpty ? 0 : .nan }
        let start = firstDay * 86_400, end = (lastDay + 1) * 86_400
        let inside = t.reduce(0) { $0 + ($1 >= start && $1 <= end ? 1 : 0) }
        let days = Double(lastDay - firstDay + 1)
        return Swift.min(100, 100 * Double(inside) / (days * 1440 / dt0))
    }

    /// iglu's active %: step dt0 = round(median interval) minutes; expected = round(span/dt0) + 1;
    /// missing = round((Σ intervals > dt0 − their count · dt0) / dt0). Python rounding (half to even).
    static func activePercent(sortedTimes t: [Int64]) -> Double {
        guard t.count > 1 else { return t.isEmpty ? .nan : 100 }
        guard let dt0 = activeStepMinutes(sortedTimes: t) else { return .nan }
        let span = Double(t[t.count - 1] - t[0]) / 60
        let expected = (span / dt0).rounded(.toNearestOrEven) + 1
        var gapMinutes = 0.0, gapCount = 0.0
        for i in 1..<t.count {
            let d = Double(t[i] - t[i - 1]) / 60
            if d > dt0 { gapMinutes += d; gapCount += 1 }
        }
        let missing = ((gapMinutes - gapCount * dt0) / dt0).rounded(.toNearestOrEven)
        return 100 * (expected - missing) / expected
    }
}
