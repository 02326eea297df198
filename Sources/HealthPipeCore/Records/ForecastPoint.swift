/// One predicted value: the forecast a model issued at `issuedAt` (the time of the newest reading it
/// used) for the instant `at`. Produced by the `predict` transform, in the metric's canonical unit.
public struct ForecastPoint: Hashable, Sendable {
    public var subject: Symbol
    public var metric: Symbol
    /// `ar2`, `ridge`, `ridge-treatments`.
    public var model: Symbol
    /// UTC epoch seconds of the newest reading the forecast used.
    public var issuedAt: Int64
    /// UTC epoch seconds the value is predicted for.
    public var at: Int64
    /// Local offset of the issuing reading.
    public var utcOffset: Int32
    public var value: Double

    public init(subject: Symbol, metric: Symbol, model: Symbol, issuedAt: Int64, at: Int64, utcOffset: Int32, value: Double) {
        self.subject = subject
        self.metric = metric
        self.model = model
        self.issuedAt = issuedAt
        self.at = at
        self.utcOffset = utcOffset
        self.value = value
    }
}
