import Testing
@testable import HealthPipeAnalytics

/// Day totals are summed exactly: the expected values are Python's `math.fsum` of the same terms
/// (a correctly rounded sum), and every order of the terms gives the same bits.
@Suite struct ExactSumTests {
    static let cases: [(terms: [Double], fsum: Double)] = [
        // A day of pump insulin (basal and bolus at one instant): left to right gives 11.287999999999998.
        ([0.8499999999999999, 4.2, 0.5999999999999999, 3, 0, 2, 0.638], 11.288),
        (Array(repeating: 0.1, count: 10), 1.0),
        ([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], 1e-100),
        ([9007199254740992.0, 1.0, 8.673617379884035e-19], 9007199254740994.0),
        ([1, 1e-16, 1e-16], 1.0000000000000002),
        ([], 0),
    ]

    /// Every rotation of the terms, reversed or not, and both magnitude orders.
    static func orders(_ terms: [Double]) -> [[Double]] {
        var out = [terms.sorted { abs($0) < abs($1) }, terms.sorted { abs($0) > abs($1) }]
        for r in 0..<max(1, terms.count) {
            let rotated = Array(terms[r...] + terms[..<r])
            out += [rotated, rotated.reversed()]
        }
        return out
    }

    @Test(arguments: 0..<cases.count)
    func equalsCorrectlyRoundedSumInEveryOrder(index: Int) {
        let (terms, expected) = Self.cases[index]
        for order in Self.orders(terms) {
            var sum = ExactSum()
            for t in order { sum.add(t) }
            #expect(sum.value.bitPattern == expected.bitPattern, "\(order) → \(sum.value), fsum \(expected)")
        }
    }
}
