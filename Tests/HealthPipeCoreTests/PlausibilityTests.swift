import Foundation
@testable import HealthPipeCore
import Testing

/// One table of plausible values per metric, applied after conversion to the canonical unit.
@Suite struct PlausibilityTests {
    @Test func glucoseIsCheckedInMgdlAfterConversion() {
        let rule = Plausibility.rule(for: Metrics.glucose)!
        #expect(rule.problem(CanonicalUnits.mgdl(fromMmol: 5.5), unit: CanonicalUnits.glucose) == nil)
        // 120 written in a mmol/L column: 2,162 mg/dL is no reading.
        #expect(rule.problem(CanonicalUnits.mgdl(fromMmol: 120), unit: CanonicalUnits.glucose)?.contains("plausible range") == true)
        #expect(rule.problem(0, unit: CanonicalUnits.glucose) != nil)
        #expect(rule.problem(-5, unit: CanonicalUnits.glucose) != nil)
        #expect(rule.problem(.nan, unit: CanonicalUnits.glucose)?.contains("not a number") == true)
        #expect(rule.problem(.infinity, unit: CanonicalUnits.glucose) != nil)
        #expect(rule.problem(40, unit: CanonicalUnits.glucose) == nil && rule.problem(500, unit: CanonicalUnits.glucose) == nil)
    }

    @Test func aWrongUnitIsRefused() {
        for unit in ["kg", "degC", "count/min", "mmol/L"] {
            #expect(Plausibility.problem(metric: Metrics.glucose, value: 100, unit: Symbol(unit))?.contains("is not a unit of glucose") == true)
        }
        #expect(Plausibility.problem(metric: Symbol("heart_rate"), value: 70, unit: Symbol("count/min")) == nil)
        #expect(Plausibility.problem(metric: Symbol("body_temperature"), value: 98.6, unit: CanonicalUnits.celsius) != nil)
    }

    @Test func metricsWithoutARuleOnlyNeedAFiniteValue() {
        #expect(Plausibility.problem(metric: Symbol("flights_climbed"), value: 3, unit: Symbol("count")) == nil)
        #expect(Plausibility.problem(metric: Symbol("flights_climbed"), value: .nan, unit: Symbol("count")) != nil)
        #expect(Plausibility.eventProblem(insulin: 4, carbs: 60) == nil)
        #expect(Plausibility.eventProblem(insulin: -1, carbs: nil) != nil)
        #expect(Plausibility.eventProblem(insulin: nil, carbs: 60_000) != nil)
    }
}
