import HealthPipeCore

/// The forecasting models `predict`, `alerts` and `evaluate` know (docs/prediction.md).
public enum ForecastModelKind: String, CaseIterable, Sendable, Decodable {
    /// Nightscout AR2, exactly as cgm-remote-monitor 15.0.7 computes it.
    case ar2
    /// Direct ridge regression on the last six readings and the local time of day.
    case ridge
    /// `ridge` plus insulin-on-board and carbs-on-board features from insulin and meal events.
    case ridgeTreatments = "ridge-treatments"

    public var symbol: Symbol { Symbol(rawValue) }
    var usesTreatments: Bool { self == .ridgeTreatments }
    var featureWidth: Int { self == .ridgeTreatments ? ForecastFeatures.treatmentWidth : ForecastFeatures.cgmWidth }
}
