/// The one home for a number read from a flag, a pipeline option or a typed field: it must be
/// finite, inside the range its meaning allows, and whole where the meaning counts things. Values
/// are checked here before any arithmetic (seconds → milliseconds, `abs`, `Duration`), so 1e308,
/// Int.min, nan or inf are refused with the name of the field instead of trapping later. Readings'
/// values use `Plausibility` (the metric catalogue) and their dates `PlausibleTime`; this table is
/// for the settings and amounts around them. docs/reliability.md ("Numbers at the boundary").
public struct NumberRule: Sendable, Equatable, CustomStringConvertible {
    /// What the number is ("seconds", "Hz"), printed after the range.
    public let unit: String
    public let range: ClosedRange<Double>
    /// True when the lower bound itself is refused (a rate of 0 Hz).
    public let lowerExclusive: Bool
    /// True for counts, days, minutes and offsets: 2.5 or 1e-320 is refused.
    public let whole: Bool

    public init(_ range: ClosedRange<Double>, unit: String, whole: Bool = false, lowerExclusive: Bool = false) {
        self.range = range
        self.unit = unit
        self.whole = whole
        self.lowerExclusive = lowerExclusive
    }

    /// `0–31622400 seconds`, `above 0 up to 100000 Hz`.
    public var description: String {
        let span = lowerExclusive ? "above \(Self.number(range.lowerBound)) up to \(Self.number(range.upperBound))"
            : "\(Self.number(range.lowerBound))–\(Self.number(range.upperBound))"
        return (whole ? "a whole number " : "") + span + (unit.isEmpty ? "" : " \(unit)")
    }

    /// True when `value` passes the rule.
    @inline(__always)
    public func allows(_ value: Double) -> Bool {
        value.isFinite && range.contains(value) && !(lowerExclusive && value == range.lowerBound)
            && (!whole || value == value.rounded())
    }

    /// Nil when `value` passes, else why not, naming `name` (a flag, an option, a field) when given.
    public func problem(_ value: Double, name: String? = nil) -> String? {
        allows(value) ? nil : (name.map { "\($0) " } ?? "") + "\(Self.number(value)) is not \(description)"
    }

    /// The number written in `text` (decimal or exponent; nan and inf are read so they are refused
    /// by name), or the reason it cannot be used.
    public func read(_ text: String, name: String? = nil) -> Result<Double, NumberRuleError> {
        guard let value = Double(text) else {
            let named = name.map { "\($0) " } ?? ""
            return .failure(NumberRuleError(message: "\(named)'\(EchoText.cap(text))' is not a number (\(description))"))
        }
        if let p = problem(value, name: name) { return .failure(NumberRuleError(message: p)) }
        return .success(value == 0 ? 0 : value)  // −0 is 0
    }

    /// `120` rather than `120.0`; other values as Swift prints them.
    static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}

/// A number refused by a `NumberRule`; the message names the field.
public struct NumberRuleError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension NumberRule {
    /// Any finite number (config numbers without a narrower meaning).
    public static let finite = NumberRule(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, unit: "")
    /// A wait, gap or duration in seconds: up to a (leap) year, so milliseconds and `Duration` stay exact.
    public static let seconds = NumberRule(0...31_622_400, unit: "seconds")
    /// A duration that must pass before something happens (an idle that ends a session).
    public static let positiveSeconds = NumberRule(0...31_622_400, unit: "seconds", lowerExclusive: true)
    /// A sample rate of a stream without time column.
    public static let sampleRate = NumberRule(0.001...100_000, unit: "Hz")
    /// The scale of int16 frames (4/32768 g for a ±4 g sensor).
    public static let int16Scale = NumberRule(0...1, unit: "g per LSB", lowerExclusive: true)
    /// Acceleration in g (accelerometers report up to ±200 g).
    public static let acceleration = NumberRule(0...200, unit: "g", lowerExclusive: true)
    /// Rotation rate limit of a gyroscope.
    public static let rotationRate = NumberRule(0...100_000, unit: "°/s", lowerExclusive: true)
    /// Accumulated movement that fills a session's bar.
    public static let movementGoal = NumberRule(0...1_000_000, unit: "g·s", lowerExclusive: true)
    /// A serial line's speed.
    public static let baud = NumberRule(1...10_000_000, unit: "baud", whole: true)
    /// Periods before (negative) or after the current one in the history views.
    public static let periodOffset = NumberRule(-120_000...120_000, unit: "periods", whole: true)
    /// A count of days back (`--last`): the plausible dates span 1960–2100, about 51,000 days.
    public static let dayCount = NumberRule(1...51_500, unit: "days", whole: true)
    /// A gap or window in whole minutes: up to 14 days.
    public static let gapMinutes = NumberRule(0...20_160, unit: "minutes", whole: true)
    /// The days a report threshold averages over.
    public static let thresholdDays = NumberRule(1...366, unit: "days", whole: true)
    /// A health report value's importance.
    public static let importance = NumberRule(Double(HealthReport.importanceRange.lowerBound)...Double(HealthReport.importanceRange.upperBound),
                                              unit: "", whole: true)
    /// An insulin dose, a meal's grams, an event's duration: the catalogue's plausible amounts.
    public static let insulinDose = NumberRule(Plausibility.insulinDose, unit: "U")
    public static let mealGrams = NumberRule(Plausibility.mealGrams, unit: "g")
    public static let durationMinutes = NumberRule(Plausibility.durationMinutes, unit: "minutes")
}

extension NumberRule {
    /// The readings' date window, in seconds once read, for sources whose dates are epoch numbers
    /// (Nightscout: every date field, numbers and texts alike): after 1970-01-01T00:00:00Z, where 0
    /// is a missing date written as the epoch, and before 2100 (`PlausibleTime.latest`). Other
    /// sources keep `PlausibleTime`'s window, whose 1960 start the shipped 1961 samples need.
    public static let readingEpochSeconds = NumberRule(1...Double(PlausibleTime.latest - 1), unit: "seconds since 1970", whole: true)
    /// A time of day as seconds after midnight (a Nightscout profile's `timeAsSeconds`).
    public static let secondOfDay = NumberRule(0...86_399, unit: "seconds of the day", whole: true)
}
