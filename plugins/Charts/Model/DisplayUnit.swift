import HealthPipeCore

/// The glucose unit a view is drawn in. The store keeps mg/dL; the seeds think in mmol/L on a 0–20 axis.
public enum DisplayUnit: String, Sendable, CaseIterable {
    case mmolL = "mmol/L"
    case mgdL = "mg/dL"

    /// Accepts the spellings `GlucoseUnit` reads (`mmol/L`, `mmol`, `mg/dL`, `mgdl`, any case).
    public init?(text: String) {
        guard let unit = GlucoseUnit(spelling: text) else { return nil }
        self = unit == .mmol ? .mmolL : .mgdL
    }

    /// A stored mg/dL value in this unit.
    @inline(__always)
    public func value(_ mgdl: Double) -> Double {
        self == .mgdL ? mgdl : mgdl / CanonicalUnits.mgdlPerMmol
    }

    /// A value for JSON: mmol/L to 0.01, mg/dL to 0.1 (finer than any meter reports).
    public func rounded(_ mgdl: Double) -> Double {
        let v = value(mgdl)
        return self == .mgdL ? (v * 10).rounded() / 10 : (v * 100).rounded() / 100
    }

    /// Decimals shown to a person: 6.1 mmol/L, 110 mg/dL.
    public var decimals: Int { self == .mgdL ? 0 : 1 }

    /// The value as a person reads it ("6.1", "110").
    public func text(_ mgdl: Double) -> String { Fmt.fixed(value(mgdl), decimals) }

    /// The seeds' axis: 0–20 mmol/L with a tick every 4 (0–360 mg/dL, a tick every 72).
    public var axisMax: Double { self == .mgdL ? 360 : 20 }
    public var tickStep: Double { self == .mgdL ? 72 : 4 }
    public var ticks: [Double] { stride(from: 0.0, through: axisMax + 1e-9, by: tickStep).map { $0 } }

    /// The AGP report's axis: 0–350 mg/dL (0–20 mmol/L) with the consensus edges marked.
    public var agpAxisMax: Double { self == .mgdL ? 350 : 20 }
    public var agpTicks: [Double] { self == .mgdL ? [0, 54, 70, 180, 250, 350] : [0, 3.0, 3.9, 10.0, 13.9, 20] }

    /// One step of the unit as people write band edges (1 mg/dL, 0.1 mmol/L).
    var edgeStep: Double { self == .mgdL ? 1 : 0.1 }

    /// An edge in mg/dL in this unit, rounded as people write it (180 mg/dL → 10.0 mmol/L).
    public func edgeValue(_ mgdl: Double) -> Double { (value(mgdl) / edgeStep).rounded() * edgeStep }

    /// An edge in mg/dL as people write it in this unit: 72 → "4.0", 70 → "3.9", 250 → "13.9".
    public func edgeText(_ mgdl: Double) -> String { Fmt.fixed(value(mgdl), decimals) }
}
