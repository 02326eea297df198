/// R type 7 / numpy "linear" quantiles: h = (n − 1)·p on the sorted values, interpolating between
/// the neighbouring order statistics.
enum Quantile {
    static func type7(sorted v: [Double], _ p: Double) -> Double {
        guard !v.isEmpty else { return .nan }
        let h = Double(v.count - 1) * p
        let lo = Int(h.rounded(.down))
        let hi = Swift.min(lo + 1, v.count - 1)
        return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
    }
}

/// Mean and sample SD (n − 1) in two passes, as numpy does, so values match the reference digits.
enum Moments {
    static func mean(_ v: [Double]) -> Double {
        v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count)
    }

    static func sampleSD(_ v: [Double]) -> Double {
        guard v.count > 1 else { return .nan }
        let m = mean(v)
        var s = 0.0
        for x in v { s += (x - m) * (x - m) }
        return (s / Double(v.count - 1)).squareRoot()
    }
}
