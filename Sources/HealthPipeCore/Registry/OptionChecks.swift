/// The range checks many components make on their numeric options, each with the one message every
/// component gives for it (pointing at the option).
extension ComponentBuilder {
    /// A grid step in whole minutes that divides a day; `fallback` when the option is not set.
    public func minutesDividingDay(_ value: Int?, option: String, default fallback: Int) throws -> Int {
        let minutes = value ?? fallback
        guard minutes > 0, 1440 % minutes == 0 else { throw error("\(option) must divide a day (1440 minutes)", option: option) }
        return minutes
    }

    /// The count option `option` (a batch size): 1 or more; `fallback` when it is not set.
    public func count(_ option: String, default fallback: Int) throws -> Int {
        let n = try value(option) ?? fallback
        guard n >= 1 else { throw error("\(option) must be at least 1", option: option) }
        return n
    }

    /// The numeric option `name` checked by `rule` (finite, in range for its meaning, whole where it
    /// counts); nil when unset. Read as a number first so `1e308` or `.inf` is refused by the rule,
    /// naming the option, rather than converted and trapping later.
    public func number(_ name: String, _ rule: NumberRule) throws -> Double? {
        guard let v = try value(name, as: Double.self) else { return nil }
        if let p = rule.problem(v, name: name) { throw error(p, option: name) }
        return v == 0 ? 0 : v
    }

    /// A whole-number option checked by `rule` (`rule.whole`); nil when unset.
    public func wholeNumber(_ name: String, _ rule: NumberRule) throws -> Int? {
        try number(name, rule).map { Int($0) }
    }
}
