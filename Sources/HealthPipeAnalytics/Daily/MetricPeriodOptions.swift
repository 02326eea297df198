import HealthPipeCore

/// Which stretches of local days get a metric set: each day, or one period (optionally bounded).
public enum MetricPeriod: Sendable, Equatable {
    case day
    /// Inclusive local-day bounds (days since 1970-01-01); nil = from the first / to the last reading.
    case period(from: Int64?, to: Int64?)
}

enum MetricPeriodOption {
    /// Parses `per`, `from` and `to` into the metric-set bucketing (nil: no metric sets).
    static func read(_ b: ComponentBuilder) throws -> MetricPeriod? {
        func day(_ text: String?, _ option: String) throws -> Int64? {
            guard let text else { return nil }
            guard let d = CivilDate.days(fromISO: text) else { throw b.error("'\(text)' is not a date (YYYY-MM-DD)", option: option) }
            return d
        }
        let from = try day(b.value("from"), "from"), to = try day(b.value("to"), "to")
        if let from, let to, from > to { throw b.error("'from' is after 'to'", option: "from") }
        switch try b.value("per") ?? "day" {
        case "day":
            if from != nil || to != nil { throw b.error("'from' and 'to' bound a period: use per: period", option: from != nil ? "from" : "to") }
            return .day
        case "period": return .period(from: from, to: to)
        case "none": return nil
        case let other: throw b.error("unknown value '\(other)' for per (day, period, none)", option: "per")
        }
    }
}

