/// Running error statistics of forecasts against the readings they predicted (mg/dL).
public struct ErrorScores: Sendable, Hashable {
    public private(set) var n = 0
    private var sumSquares = 0.0, sumAbsolute = 0.0, sumRelative = 0.0
    private var zoneA = 0, zoneB = 0

    public init() {}

    public mutating func add(prediction p: Double, reference r: Double) {
        let e = p - r
        n += 1
        sumSquares += e * e
        sumAbsolute += abs(e)
        sumRelative += abs(e) / r
        switch ClarkeZone.of(reference: r, prediction: p) {
        case .a: zoneA += 1
        case .b: zoneB += 1
        default: break
        }
    }

    public var rmse: Double { n == 0 ? .nan : (sumSquares / Double(n)).squareRoot() }
    public var mae: Double { n == 0 ? .nan : sumAbsolute / Double(n) }
    /// Mean absolute relative difference, percent.
    public var mard: Double { n == 0 ? .nan : 100 * sumRelative / Double(n) }
    /// Percent of forecasts in Clarke zone A, and in A or B.
    public var clarkeA: Double { n == 0 ? .nan : 100 * Double(zoneA) / Double(n) }
    public var clarkeAB: Double { n == 0 ? .nan : 100 * Double(zoneA + zoneB) / Double(n) }

    public static func + (a: ErrorScores, b: ErrorScores) -> ErrorScores {
        var s = a
        s.n += b.n
        s.sumSquares += b.sumSquares
        s.sumAbsolute += b.sumAbsolute
        s.sumRelative += b.sumRelative
        s.zoneA += b.zoneA
        s.zoneB += b.zoneB
        return s
    }
}
