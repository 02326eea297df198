/// The range checks many components make on their numeric options, each with the one message every
/// component gives for it (pointing at the option).
extension ComponentBuilder {
    /// A grid step in whole minutes that divides a day; `fallback` when the option is not set.
    public func minutesDividingDay(_ value: Int?, option: String, default fallback: Int) throws -> Int {
        let minutes = value ?? fallback
        guard minutes > 0, 1440 % minutes == 0 else { throw error("\(option) must divide a day (1440 minutes)", option: option) }
        return minutes
    }

    /// A count or length that is 0 or more; `fallback` when the option is not set.
    public func notNegative(_ value: Int?, option: String, default fallback: Int) throws -> Int {
        let v = value ?? fallback
        guard v >= 0 else { throw error("\(option) cannot be negative", option: option) }
        return v
    }

    /// A number above 0 (or 0 too, with `allowZero`); nil when the option is not set.
    public func positive(_ value: Double?, option: String, allowZero: Bool = false) throws -> Double? {
        guard let value else { return nil }
        guard value > 0 || (allowZero && value == 0) else { throw error("\(option) must be positive", option: option) }
        return value
    }

    /// The count option `option` (a batch size): 1 or more; `fallback` when it is not set.
    public func count(_ option: String, default fallback: Int) throws -> Int {
        let n = try value(option) ?? fallback
        guard n >= 1 else { throw error("\(option) must be at least 1", option: option) }
        return n
    }
}
