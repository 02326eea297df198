import ArgumentParser
import HealthPipeCore

/// The value of a numeric flag, read through its `NumberRule` while the arguments are parsed:
/// `@Option(transform: NumberRule.seconds.flag) var silence: NumberFlag?`. A value outside the
/// rule is a usage error (exit 2) that argument-parser words as "The value '1e308' is invalid for
/// '--silence <silence>': 1e+308 is not 0–31622400 seconds", so no command sees nan, inf, Int.min
/// or a number its arithmetic cannot hold. Every numeric flag has this type (NumberFlagTests
/// enumerates the command tree and refuses a raw `Double`/`Int` flag).
struct NumberFlag: Sendable, CustomStringConvertible {
    let value: Double
    let rule: NumberRule

    init(_ value: Double, _ rule: NumberRule) {
        precondition(rule.allows(value), "a flag's default must pass its own rule")
        self.value = value
        self.rule = rule
    }

    /// The value of a whole-number rule (in range, so the conversion cannot trap).
    var int: Int { Int(value) }

    var description: String { rule.whole ? String(int) : String(value) }
}

extension NumberRule {
    /// The transform of a flag with this rule.
    var flag: @Sendable (String) throws -> NumberFlag {
        { text in
            switch read(text) {
            case .success(let v): return NumberFlag(v, self)
            case .failure(let e): throw e
            }
        }
    }
}
