import HealthPipeAnalytics
import HealthPipeCore

/// How a person wants the views drawn (the seeds' settings page).
public struct ViewSettings: Sendable {
    public var unit: DisplayUnit = .mmolL
    /// The seeds let a user hide basal insulin from the graph.
    public var showBasal = true
    /// The day view's forecast model; nil draws no forecast.
    public var model: ForecastModelKind? = .ridge
    public var horizonMinutes = 30
    /// Bands to draw; nil: the preset the stored readings were classified with (seeds when unknown).
    public var scheme: BandScheme?
    /// "Today" for navigation; nil: the real date where the latest reading was taken.
    public var today: Int64?

    public init() {}
}
