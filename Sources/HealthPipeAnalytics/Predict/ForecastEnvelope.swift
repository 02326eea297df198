/// What physiology allows a glucose forecast (docs/prediction.md, "What a forecast may show"): the
/// one rule every model's output passes through (`SubjectForecaster.add`), so the forecasts
/// `predict` stores, `alerts` looks at, `evaluate` scores and the charts and the app draw all obey it.
///
/// A point moves at most `maxRatePerMinute` × 5 mg/dL from the point before it (the last reading
/// before the first), so it lies at most `maxRatePerMinute` × its minutes from the last reading,
/// and lies within the sensors' reportable range `floor` … `ceiling`. A forecast is shortened
/// before its first point that would leave the envelope — never bent or moved to fit — and one
/// whose first point would leave it is not made: a model that moves faster than glucose can is
/// reacting to noise (one noisy 5-minute step drove a ridge forecast into a severe low at
/// 9 mg/dL per minute, issue 36), and a slower line drawn in its place would still be its guess.
public enum ForecastEnvelope {
    /// mg/dL per minute. Dexcom's fastest trend arrow means "more than 3 mg/dL each minute" (Dexcom
    /// user manuals); in 1.27 million type 1 rates of change over 15 minutes the standard deviation
    /// was 1.1 mg/dL/min (Christensen et al., J Diabetes Sci Technol 2024;18(4):795–799). 4 mg/dL/min
    /// leaves every "rapidly falling/rising" arrow room and is over three and a half of those deviations.
    public static let maxRatePerMinute = 4.0
    /// Minutes between forecast points.
    public static let stepMinutes = 5.0
    /// The most a point may move from the one before it.
    public static var maxStep: Double { maxRatePerMinute * stepMinutes }
    /// The CGM sensors' reportable range (Dexcom, Medtronic: 40–400 mg/dL; lower and higher readings show as LOW/HIGH).
    public static let floor = 40.0
    public static let ceiling = 400.0

    /// Keeps the points of a forecast issued at a reading of `origin` mg/dL (one point per
    /// 5-minute step, in order) as far as the envelope allows: each clamped to `floor` … `ceiling`,
    /// the forecast ended before the first point more than `maxStep` from the one before it (or not
    /// finite). Empty when the first point already leaves it (or the origin is not finite).
    public static func limit(_ points: inout [Double], from origin: Double) {
        var previous = origin
        for i in points.indices {
            let clamped = min(ceiling, max(floor, points[i]))
            guard points[i].isFinite, previous.isFinite, abs(clamped - previous) <= maxStep else {
                points.removeSubrange(i...)
                return
            }
            points[i] = clamped
            previous = clamped
        }
    }
}
