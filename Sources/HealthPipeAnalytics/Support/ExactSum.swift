/// A sum of doubles rounded once, at the end: Shewchuk's non-overlapping partials, as Python's
/// `math.fsum`. The result is the correctly rounded sum of the terms, so it has the same bits in
/// whatever order the terms arrive — day totals agree between a stream, SQLite and PostgreSQL even
/// when two events at one instant come back from the stores in different orders.
struct ExactSum {
    private var partials: [Double] = []

    mutating func add(_ value: Double) {
        var x = value
        var kept = 0
        for j in partials.indices {
            var y = partials[j]
            if abs(x) < abs(y) { swap(&x, &y) }
            let hi = x + y
            let lo = y - (hi - x)
            if lo != 0 { partials[kept] = lo; kept += 1 }
            x = hi
        }
        partials.removeSubrange(kept...)
        partials.append(x)
    }

    /// Adds another sum's terms, still exactly.
    mutating func add(_ other: ExactSum) { for p in other.partials { add(p) } }

    var value: Double {
        guard var n = partials.indices.last else { return 0 }
        var hi = partials[n]
        var lo = 0.0
        while n > 0 {
            let x = hi
            n -= 1
            let y = partials[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0 { break }
        }
        // Round half to even across the partials below: when the rest has the sign of `lo`, the
        // sum is past the halfway point and `hi + 2·lo` is the correctly rounded result.
        if n > 0, (lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0) {
            let y = lo * 2
            let x = hi + y
            if y == x - hi { hi = x }
        }
        return hi
    }
}
