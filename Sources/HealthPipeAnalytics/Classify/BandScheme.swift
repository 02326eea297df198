import HealthPipeCore

/// An ordered set of glucose bands with their upper edges, in mg/dL. A value belongs to the first
/// band whose edge it is below (or at, for an inclusive edge); the last band has no edge.
public struct BandScheme: Sendable, Hashable {
    public struct Band: Sendable, Hashable {
        public var label: Symbol
        /// Upper edge in mg/dL; nil for the last band.
        public var upper: Double?
        /// True: the edge belongs to this band (g ≤ upper). False: g < upper.
        public var inclusive: Bool
    }

    public var name: String
    public var bands: [Band]
    /// Index of the target ("normal", "in range") band: bands before it are low, after it high.
    public var target: Int

    @inline(__always)
    public func classify(_ g: Double) -> Int {
        for i in 0..<(bands.count - 1) {
            let b = bands[i]
            if b.inclusive ? g <= b.upper! : g < b.upper! { return i }
        }
        return bands.count - 1
    }

    /// The seeds' three bands in mmol/L: low < 4.0, normal 4.0–10.0, high > 10.0. Edges are
    /// converted to mg/dL and rounded (72 and 180), as readings are (reference/analytics.md §4).
    public static let seeds = BandScheme(name: "seeds", bands: [
        Band(label: Symbol("low"), upper: CanonicalUnits.mgdl(fromMmol: 4.0), inclusive: false),
        Band(label: Symbol("normal"), upper: CanonicalUnits.mgdl(fromMmol: 10.0), inclusive: true),
        Band(label: Symbol("high"), upper: nil, inclusive: false),
    ], target: 1)

    /// Battelino et al. 2019 consensus: very low < 54, low 54–69, in range 70–180, high 181–250, very high > 250.
    public static let consensus = BandScheme(name: "consensus", bands: [
        Band(label: Symbol("very_low"), upper: 54, inclusive: false),
        Band(label: Symbol("low"), upper: 70, inclusive: false),
        Band(label: Symbol("in_range"), upper: 180, inclusive: true),
        Band(label: Symbol("high"), upper: 250, inclusive: true),
        Band(label: Symbol("very_high"), upper: nil, inclusive: false),
    ], target: 2)

    /// iglu's three-band classifier: low < 70, in range 70–180, high > 180.
    public static let range = BandScheme(name: "range", bands: [
        Band(label: Symbol("low"), upper: 70, inclusive: false),
        Band(label: Symbol("in_range"), upper: 180, inclusive: true),
        Band(label: Symbol("high"), upper: nil, inclusive: false),
    ], target: 1)

    public static let presets: [String: BandScheme] = ["seeds": seeds, "consensus": consensus, "range": range]
}
