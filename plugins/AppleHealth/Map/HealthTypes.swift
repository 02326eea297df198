import HealthPipeCore

/// What a HealthKit type identifier becomes, worked out once per distinct identifier; it also
/// remembers its units and category values, which repeat on every record of the type.
final class HealthType {
    enum Kind { case quantity, category, insulin, dietaryCarbs }
    let identifier: String
    /// Friendly metric name (`HKQuantityTypeIdentifierBloodGlucose` → `glucose`, unknown → snake case).
    let name: String
    let metric: Symbol
    let kind: Kind
    /// False when the stage's type allow/deny lists exclude it.
    let included: Bool
    /// What its values may be in the canonical unit (nil: only finiteness is checked).
    let plausibility: Plausibility.Rule?
    /// A HealthKit quantity type: its value must be a number (an identifier HealthPipe does not know
    /// may carry a state as text, kept like a category).
    var isQuantity: Bool { identifier.hasPrefix("HKQuantityTypeIdentifier") }
    let short: String
    /// Used by the parser thread only (see ExportHandler on exclusivity checks).
    @exclusivity(unchecked) var units = ByteCache<UnitConversion>(capacity: 4)
    /// Its slot in the handler's `RowTally` (-1 until a top-level element of the type is counted).
    @exclusivity(unchecked) var slot = -1
    private var categoryMetrics: [String: Symbol] = [:]

    init(identifier: String, filter: TypeFilter) {
        self.identifier = identifier
        short = HealthTypes.shortName(identifier)
        name = HealthTypes.metricName(short: short)
        metric = Symbol(name)
        if identifier.hasPrefix("HKCategoryTypeIdentifier") { kind = .category }
        else if short == "InsulinDelivery" { kind = .insulin }
        else if short == "DietaryCarbohydrates" { kind = .dietaryCarbs }
        else { kind = .quantity }
        included = filter.includes(identifier: identifier, name: name)
        plausibility = Plausibility.rule(for: metric)
    }

    /// `sleep_analysis.asleep_core` for a sleep stage; the plain metric for "not applicable" values.
    func categoryMetric(_ value: String?) -> Symbol {
        guard let value else { return metric }
        if let s = categoryMetrics[value] { return s }
        let s = HealthTypes.categorySuffix(value: value, typeShort: short).map { Symbol(name + "." + $0) } ?? metric
        categoryMetrics[value] = s
        return s
    }
}

enum HealthTypes {
    static let prefixes = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
                           "HKDataTypeIdentifier", "HKDataType", "HKWorkoutActivityType", "HKCategoryValue", "HK"]
    /// Names the rest of HealthPipe knows under another spelling.
    // Names other parts of HealthPipe rely on: toothbrushing feeds the motion-session history (brushing_sessions).
    static let renamed = ["BloodGlucose": "glucose", "ToothbrushingEvent": "toothbrushing", "HandwashingEvent": "handwashing"]
    /// Category values Apple renamed without changing the sample (same raw value): exports written
    /// before and after the rename must name one state, or a newer export of the same phone stores
    /// its old samples again under a second metric. iOS 16 renamed `…SleepAnalysisAsleep` (raw 1).
    static let renamedValues = ["SleepAnalysisAsleep": "SleepAnalysisAsleepUnspecified"]

    /// The identifier without Apple's prefix: `HKQuantityTypeIdentifierStepCount` → `StepCount`.
    static func shortName(_ identifier: String) -> String {
        for p in prefixes where identifier.hasPrefix(p) && identifier.count > p.count { return String(identifier.dropFirst(p.count)) }
        return identifier
    }

    static func metricName(short: String) -> String { renamed[short] ?? snakeCase(short) }

    /// `DistanceWalkingRunning` → `distance_walking_running`; `VO2Max` → `vo2_max`; `UVExposure` → `uv_exposure`.
    static func snakeCase(_ s: String) -> String {
        let chars = Array(s)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0 {
                let prev = chars[i - 1]
                let nextLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if prev.isLowercase || prev.isNumber || (prev.isUppercase && nextLower) { out.append("_") }
            }
            if c == " " || c == "-" || c == "." { out.append("_"); continue }
            out.append(contentsOf: c.lowercased())
        }
        return out
    }

    /// A category value's suffix: `HKCategoryValueSleepAnalysisAsleepCore` of SleepAnalysis → `asleep_core`,
    /// the pre-iOS-16 `HKCategoryValueSleepAnalysisAsleep` → `asleep_unspecified`;
    /// nil for "not applicable" (toothbrushing, handwashing, mindful sessions) and empty values.
    static func categorySuffix(value: String, typeShort: String) -> String? {
        var v = value
        if v.hasPrefix("HKCategoryValue") { v.removeFirst("HKCategoryValue".count) }
        v = renamedValues[v] ?? v
        if v.hasPrefix(typeShort), v.count > typeShort.count { v.removeFirst(typeShort.count) }
        if v.isEmpty || v == "NotApplicable" { return nil }
        return snakeCase(v)
    }
}

/// The stage's record-type allow and deny lists; names match the HK identifier or the metric name.
struct TypeFilter: Sendable {
    var allow: Set<String> = []
    var deny: Set<String> = []

    func includes(identifier: String, name: String) -> Bool {
        if deny.contains(identifier) || deny.contains(name) { return false }
        return allow.isEmpty || allow.contains(identifier) || allow.contains(name)
    }
}
