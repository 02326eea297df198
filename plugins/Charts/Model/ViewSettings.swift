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

    /// A setting given as text that is not one of its values: which option, and what it takes.
    public struct Invalid: Error, CustomStringConvertible {
        public var option: String
        public var description: String
    }

    /// Settings from their text form (command-line options, a sink's options); nil keeps the default.
    public static func parse(unit: String?, model: String?, preset: String?) throws -> ViewSettings {
        var s = ViewSettings()
        if let unit {
            guard let u = DisplayUnit(text: unit) else { throw Invalid(option: "unit", description: "unit is mmol/L or mg/dL (got '\(unit)')") }
            s.unit = u
        }
        if let model {
            if model == "none" {
                s.model = nil
            } else {
                guard let m = ForecastModelKind(rawValue: model) else {
                    throw Invalid(option: "model", description: "model is ridge, ar2, ridge-treatments or none (got '\(model)')")
                }
                s.model = m
            }
        }
        if let preset {
            guard let scheme = BandScheme.presets[preset] else {
                throw Invalid(option: "preset", description: "preset is seeds, consensus or range (got '\(preset)')")
            }
            s.scheme = scheme
        }
        return s
    }
}
