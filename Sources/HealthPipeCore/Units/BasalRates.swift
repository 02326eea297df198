/// The one way a basal rate is stored, whichever pump or app wrote it: a `basal_rate` measurement in
/// U/h. A rate at an instant (start = end) is a scheduled change that holds until the next one; a
/// rate with a span is delivered over exactly that span: the schedule's own segment when flagged
/// `scheduledRate`, else a temp basal, an automated or suspended segment, or a delivery whose amount
/// and duration give the rate. The day view draws scheduled steps light and the others over them;
/// queries read one metric for every source.
public enum BasalRates {
    public static let metric = Symbol("basal_rate")
    public static let unit = Symbol("U/h")

    /// A rate rounded to the pumps' 0.001 U/h, from `start` to `end` (`end == start`: a scheduled change).
    public static func measurement(_ rate: Double, subject: Symbol, source: Symbol, start: Int64, end: Int64, utcOffset: Int32,
                                   flags: RecordFlags = [], provenance: Provenance, device: Symbol = .empty,
                                   metadata: String? = nil) -> Measurement {
        Measurement(subject: subject, metric: metric, source: source, start: start, end: max(end, start), utcOffset: utcOffset,
                    value: (rate * 1000).rounded() / 1000, unit: unit, flags: flags, provenance: provenance, device: device,
                    metadata: metadata)
    }

    /// The rate of `units` delivered evenly from `start` to `end`; nil for an instant (no rate to give).
    public static func rate(units: Double, start: Int64, end: Int64) -> Double? {
        guard end > start, units.isFinite, units >= 0 else { return nil }
        return units * 3600 / Double(end - start)
    }
}
