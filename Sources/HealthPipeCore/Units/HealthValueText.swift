import Foundation

/// Reads one health value as people type it on the command line or in a file cell:
/// `metric=number[unit]:importance` — `body_temperature=37.8:4`, `weight=72.5kg:2`,
/// `glucose=6.1 mmol/L:3`, `temperature=100.4°F:4`. The value is converted to the metric's
/// canonical unit; every problem is described with the text it came from.
public enum HealthValueText {
    public static func parse(_ text: String) -> Result<HealthReport.Value, EntryProblem> {
        guard let eq = text.firstIndex(of: "=") else {
            return .failure(EntryProblem("'\(text)' is not metric=value[unit]:importance (e.g. body_temperature=37.8:4)"))
        }
        let name = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        var rest = String(text[text.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        guard let colon = rest.lastIndex(of: ":") else {
            return .failure(EntryProblem("'\(text)' has no importance: end it with :1 … :5 (e.g. \(name)=\(rest):3)"))
        }
        let importanceText = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        rest = String(rest[..<colon]).trimmingCharacters(in: .whitespaces)
        guard let importance = Int(importanceText) else {
            return .failure(EntryProblem("'\(text)': importance '\(importanceText)' is not a whole number 1–5"))
        }
        let (number, unit) = splitNumber(rest)
        guard let number else { return .failure(EntryProblem("'\(text)': '\(rest)' is not a number with an optional unit")) }
        return value(metric: name, number: number, unit: unit, importance: importance)
            .mapError { EntryProblem("'\(text)': \($0.message)", field: "values") }
    }

    /// A value from its parts (file columns, JSON fields, pipeline options).
    public static func value(metric name: String, number: Double, unit: String, importance: Int) -> Result<HealthReport.Value, EntryProblem> {
        guard let metric = HealthValues.metricName(name) else {
            return .failure(EntryProblem("'\(name)' is not a health value name (letters, digits and _, e.g. body_temperature)"))
        }
        guard HealthReport.importanceRange.contains(importance) else {
            return .failure(EntryProblem("importance \(importance) is outside 1–5"))
        }
        switch HealthValues.canonical(metric: metric, value: number, unit: unit) {
        case .failure(let p): return .failure(EntryProblem("\(metric): \(p)"))
        case .success(let c):
            return .success(HealthReport.Value(metric: Symbol(metric), value: c.value, unit: Symbol(c.unit),
                                               importance: importance, flags: c.flags))
        }
    }

    /// `37.8degC` → (37.8, "degC"); a decimal comma is read as a point when there is no point.
    public static func splitNumber(_ text: String) -> (Double?, String) {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        if i < scalars.count, scalars[i] == "+" || scalars[i] == "-" { i += 1 }
        while i < scalars.count, ("0"..."9").contains(scalars[i]) || scalars[i] == "." || scalars[i] == "," { i += 1 }
        var digits = String(String.UnicodeScalarView(scalars[0..<i]))
        if !digits.contains(".") { digits = digits.replacingOccurrences(of: ",", with: ".") }
        let unit = String(String.UnicodeScalarView(scalars[i...])).trimmingCharacters(in: .whitespaces)
        guard let v = Double(digits), v.isFinite else { return (nil, unit) }
        return (v, unit)
    }
}

/// What is wrong with a typed or read entry, in words that quote what was typed.
public struct EntryProblem: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// The option, flag or column the problem is in (`values`, `units`, `end`…), when one is.
    public let field: String?
    public init(_ message: String, field: String? = nil) {
        self.message = message
        self.field = field
    }
    public var description: String { message }
}
