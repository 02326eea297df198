import HealthPipeCore

/// Merges consecutive triggers into one alert: a trigger within `maxGap` seconds of the previous
/// one extends the open episode, a longer gap (or a non-trigger) closes it. Episodes shorter than
/// `minDuration` are dropped.
struct EpisodeTracker {
    let kind: Alert.Kind
    let threshold: Double
    let lowIsWorse: Bool
    let maxGap: Int64
    let minDuration: Int64
    private var open: Alert?

    init(kind: Alert.Kind, threshold: Double, maxGap: Int64, minDuration: Int64) {
        self.kind = kind
        self.threshold = threshold
        self.lowIsWorse = kind == .low || kind == .predictedLow
        self.maxGap = maxGap
        self.minDuration = minDuration
    }

    /// Feeds one time point; returns an alert when an episode closed.
    mutating func step(subject: Symbol, metric: Symbol, model: Symbol, time: Int64, utcOffset: Int32,
                       triggered: Bool, value: Double) -> Alert? {
        var closed: Alert?
        if let o = open, !triggered || time - o.end > maxGap {
            closed = o.durationSeconds >= minDuration ? o : nil
            open = nil
        }
        if triggered {
            if open == nil {
                open = Alert(subject: subject, metric: metric, kind: kind, start: time, end: time, utcOffset: utcOffset,
                             value: value, threshold: threshold, model: model)
            } else {
                open!.end = time
                open!.value = lowIsWorse ? min(open!.value, value) : max(open!.value, value)
            }
        }
        return closed
    }

    /// Closes the open episode at the end of the stream.
    mutating func flush() -> Alert? {
        defer { open = nil }
        guard let o = open, o.durationSeconds >= minDuration else { return nil }
        return o
    }
}
