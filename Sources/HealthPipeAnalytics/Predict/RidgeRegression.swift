/// Closed-form ridge regression with an unpenalised intercept, α chosen by exact leave-one-out
/// error among 10^−2, 10^−1.5, … 10^4 (scikit-learn's `RidgeCV` defaults, reference/analytics.md
/// §6.4). Features are not standardised. Small dense solves only (p ≤ a few dozen).
public struct RidgeModel: Sendable, Hashable {
    public var intercept: Double
    public var weights: [Double]
    public var alpha: Double
    public init(intercept: Double, weights: [Double], alpha: Double) {
        self.intercept = intercept
        self.weights = weights
        self.alpha = alpha
    }

    @inline(__always)
    public func predict(_ x: UnsafeBufferPointer<Double>) -> Double {
        var s = intercept
        for j in 0..<weights.count { s += weights[j] * x[j] }
        return s
    }

    public func predict(_ x: [Double]) -> Double { x.withUnsafeBufferPointer { predict($0) } }
}

public enum RidgeRegression {
    public static let alphaGrid: [Double] = (0...12).map { pow(10, -2 + 0.5 * Double($0)) }

    /// Fits `targets` on the rows of `features` (row-major, `width` values per row). Nil when there
    /// are fewer rows than features + 2 or the system is singular.
    public static func fit(features: [Double], width p: Int, targets y: [Double], alphas: [Double] = alphaGrid) -> RidgeModel? {
        let n = y.count
        guard p > 0, n >= p + 2, features.count == n * p else { return nil }
        var mean = [Double](repeating: 0, count: p)
        var yMean = 0.0
        for i in 0..<n {
            for j in 0..<p { mean[j] += features[i * p + j] }
            yMean += y[i]
        }
        for j in 0..<p { mean[j] /= Double(n) }
        yMean /= Double(n)
        var xc = features
        var yc = y
        for i in 0..<n {
            for j in 0..<p { xc[i * p + j] -= mean[j] }
            yc[i] -= yMean
        }
        var gram = [Double](repeating: 0, count: p * p)
        var xty = [Double](repeating: 0, count: p)
        for i in 0..<n {
            let base = i * p
            for a in 0..<p {
                let va = xc[base + a]
                xty[a] += va * yc[i]
                for b in a..<p { gram[a * p + b] += va * xc[base + b] }
            }
        }
        for a in 0..<p { for b in 0..<a { gram[a * p + b] = gram[b * p + a] } }

        var best: (mse: Double, alpha: Double, beta: [Double])?
        for alpha in alphas {
            var m = gram
            for a in 0..<p { m[a * p + a] += alpha }
            guard let inverse = SymmetricInverse.invert(m, size: p) else { continue }
            var beta = [Double](repeating: 0, count: p)
            for a in 0..<p { for b in 0..<p { beta[a] += inverse[a * p + b] * xty[b] } }
            // Leave-one-out residual of row i: (y_i − ŷ_i) / (1 − h_i), with h_i = 1/n + x_iᵀ(XᵀX + αI)⁻¹x_i.
            var sse = 0.0
            var tmp = [Double](repeating: 0, count: p)
            for i in 0..<n {
                let base = i * p
                var fit = 0.0
                for a in 0..<p { fit += xc[base + a] * beta[a] }
                var h = 1 / Double(n)
                for a in 0..<p {
                    var s = 0.0
                    for b in 0..<p { s += inverse[a * p + b] * xc[base + b] }
                    tmp[a] = s
                }
                for a in 0..<p { h += xc[base + a] * tmp[a] }
                let r = (yc[i] - fit) / (1 - h)
                sse += r * r
            }
            let mse = sse / Double(n)
            if best == nil || mse < best!.mse { best = (mse, alpha, beta) }
        }
        guard let best else { return nil }
        var intercept = yMean
        for j in 0..<p { intercept -= mean[j] * best.beta[j] }
        return RidgeModel(intercept: intercept, weights: best.beta, alpha: best.alpha)
    }
}

/// Inverse of a symmetric positive-definite matrix through its Cholesky factor.
enum SymmetricInverse {
    static func invert(_ a: [Double], size p: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: p * p)
        for i in 0..<p {
            for j in 0...i {
                var s = a[i * p + j]
                for k in 0..<j { s -= l[i * p + k] * l[j * p + k] }
                if i == j {
                    guard s > 0 else { return nil }
                    l[i * p + i] = s.squareRoot()
                } else {
                    l[i * p + j] = s / l[j * p + j]
                }
            }
        }
        // Solve L Lᵀ X = I column by column.
        var inv = [Double](repeating: 0, count: p * p)
        var z = [Double](repeating: 0, count: p)
        for c in 0..<p {
            for i in 0..<p {
                var s = i == c ? 1.0 : 0.0
                for k in 0..<i { s -= l[i * p + k] * z[k] }
                z[i] = s / l[i * p + i]
            }
            for i in stride(from: p - 1, through: 0, by: -1) {
                var s = z[i]
                for k in (i + 1)..<p where k < p { s -= l[k * p + i] * inv[k * p + c] }
                inv[i * p + c] = s / l[i * p + i]
            }
        }
        return inv
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
