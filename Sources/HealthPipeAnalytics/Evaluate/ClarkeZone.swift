/// Clarke error grid zones, with the rule order of the `error-grids` 0.1.0 package
/// (reference/analytics.md §7): the first matching rule wins. Values in mg/dL.
public enum ClarkeZone: String, Sendable, CaseIterable {
    case a = "A", b = "B", c = "C", d = "D", e = "E"

    public static func of(reference r: Double, prediction p: Double) -> ClarkeZone {
        if (r < 70 && p < 70) || abs(r - p) < 0.2 * r { return .a }
        if (r <= 70 && p >= 180) || (r >= 180 && p <= 70) { return .e }
        if (r >= 240 && p >= 70 && p <= 180) || (r <= 70 && p >= 70 && p <= 180) { return .d }
        if (r >= 70 && r <= 290 && p >= r + 110) || (r >= 130 && r <= 180 && p <= 1.4 * r - 182) { return .c }
        return .b
    }
}
