/// A glucose alert: a predicted low/high within the forecast horizon, or a sustained low/high
/// episode of measured readings. Consecutive triggers merge into one alert with a start and an end.
public struct Alert: Hashable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// A forecast within the horizon falls below the low threshold.
        case predictedLow = "predicted_low"
        /// A forecast within the horizon rises above the high threshold.
        case predictedHigh = "predicted_high"
        /// Readings stayed below the low threshold for at least the minimum duration.
        case low
        /// Readings stayed above the high threshold for at least the minimum duration.
        case high
        /// Health reports (seed 004): no report by the day's reminder time.
        case reminder
        /// Health reports: the average of a watched value over its period rose above its threshold.
        case averageAbove = "average_above"
        /// Health reports: the average of a watched value over its period fell below its threshold.
        case averageBelow = "average_below"

        /// The kinds computed from health reports (the `reports` step), not from glucose readings.
        public var fromReports: Bool { self == .reminder || self == .averageAbove || self == .averageBelow }
        public static let reportKinds: [Kind] = [.reminder, .averageAbove, .averageBelow]
    }

    public var subject: Symbol
    public var metric: Symbol
    public var kind: Kind
    /// UTC epoch seconds: first and last reading (or forecast issue time) of the alert.
    public var start: Int64
    public var end: Int64
    public var utcOffset: Int32
    /// The most extreme value seen (lowest for lows, highest for highs), measured or predicted.
    public var value: Double
    /// The threshold crossed, in the metric's unit.
    public var threshold: Double
    /// The forecasting model for predicted alerts; empty for measured episodes.
    public var model: Symbol

    public init(subject: Symbol, metric: Symbol, kind: Kind, start: Int64, end: Int64, utcOffset: Int32,
                value: Double, threshold: Double, model: Symbol = .empty) {
        self.subject = subject
        self.metric = metric
        self.kind = kind
        self.start = start
        self.end = end
        self.utcOffset = utcOffset
        self.value = value
        self.threshold = threshold
        self.model = model
    }

    public var durationSeconds: Int64 { end - start }
}
