/// A day's insulin as a person and a clinician read it: the boluses, the basal, and their sum (the
/// total daily dose) — never the boluses alone called "insulin". Basal is what the markers give as
/// amounts (a long-acting injection, a delivery recorded in units) plus what the recorded rates
/// delivered (a temporary rate in place of the scheduled one while it runs). A day whose rates do
/// not cover all 24 hours has no basal total: a pump's gaps are unknown insulin, not none.
public struct DayInsulin: Sendable, Equatable {
    public var bolus: Double
    /// Basal given as amounts (injections, deliveries in units).
    public var basalAmounts: Double
    /// Units the recorded rates delivered over the minutes they cover.
    public var basalFromRates: Double
    /// Minutes of the day some rate covers (0 without rates).
    public var rateMinutes: Double

    /// True when the day's basal is known whole: rates over the whole day, or no rates at all (injections only).
    public var basalKnown: Bool { rateMinutes == 0 || rateMinutes >= 1440 - 0.5 }
    public var basal: Double { basalAmounts + basalFromRates }
    /// The total daily dose; nil when the basal is not known whole.
    public var total: Double? { basalKnown ? bolus + basal : nil }

    init(_ view: DayView) {
        bolus = view.markers.filter { $0.kind == .insulin && !$0.isBasal }.compactMap(\.insulin).reduce(0, +)
        basalAmounts = view.markers.filter(\.isBasal).compactMap(\.insulin).reduce(0, +)
        (basalFromRates, rateMinutes) = Self.delivered(view.basal)
    }

    /// Units and minutes covered: over each stretch between two step edges, the temporary rate
    /// running there, else the scheduled one.
    static func delivered(_ steps: [DayView.BasalSegment]) -> (units: Double, minutes: Double) {
        let edges = Set(steps.flatMap { [$0.startMinute, $0.endMinute] }).sorted()
        var units = 0.0, minutes = 0.0
        for (a, b) in zip(edges, edges.dropFirst()) where b > a {
            let mid = (a + b) / 2
            let covering = steps.filter { $0.startMinute <= mid && mid < $0.endMinute }
            guard let step = covering.last(where: \.temporary) ?? covering.last else { continue }
            units += step.rate * (b - a) / 60
            minutes += b - a
        }
        return (units, minutes)
    }
}

extension DayView {
    public var insulin: DayInsulin { DayInsulin(self) }
}
