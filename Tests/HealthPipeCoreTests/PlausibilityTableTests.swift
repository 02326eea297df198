import Testing
@testable import HealthPipeCore

/// The one plausibility table: field ranges are the metric rules' bounds, and the numbers that
/// once differed between sources (250 U and 2,000 g in JSON sources, 20–600 mg/dL in t:connect) are
/// the table's.
@Suite struct PlausibilityTableTests {
    @Test func fieldRangesAreTheRulesBounds() {
        #expect(Plausibility.basalRate == 0...100)
        #expect(Plausibility.basalRate == Plausibility.bounds("basal_rate"))
        #expect(Plausibility.glucoseMgdl == Plausibility.bounds("glucose"))
        #expect(Plausibility.ketoneMmol == Plausibility.bounds("ketone"))
        #expect(Plausibility.insulinDose == Plausibility.insulinUnits.lower...Plausibility.insulinUnits.upper)
        #expect(Plausibility.mealGrams == Plausibility.carbGrams.lower...Plausibility.carbGrams.upper)
    }

    @Test func oneAnswerForEverySource() {
        // What a CSV event check accepts, a field check accepts, and the other way round.
        for (insulin, carbs) in [(300.0, 2500.0), (999.0, 4999.0), (1000.0, 5000.0)] {
            #expect(Plausibility.eventProblem(insulin: insulin, carbs: carbs) == nil)
            #expect(Plausibility.check(insulin, Plausibility.insulinDose, "insulin", unit: "U") == nil)
            #expect(Plausibility.check(carbs, Plausibility.mealGrams, "carbs", unit: "g") == nil)
        }
        #expect(Plausibility.eventProblem(insulin: 1200, carbs: nil) != nil)
        #expect(Plausibility.check(1200, Plausibility.insulinDose, "insulin", unit: "U")
                == "insulin 1200 U is outside the plausible range 0–1000 U")
        #expect(Plausibility.check(.nan, Plausibility.insulinDose, "insulin", unit: "U") != nil)
        #expect(Plausibility.check(.infinity, Plausibility.durationMinutes, "duration", unit: "min") != nil)
    }

    @Test func deviceStatusMetricsHaveRules() {
        #expect(Plausibility.problem(metric: Symbol("insulin_on_board"), value: -2.5, unit: Symbol("U")) == nil)
        #expect(Plausibility.problem(metric: Symbol("pump_battery"), value: 140, unit: Symbol("%")) != nil)
        #expect(Plausibility.problem(metric: Symbol("basal_rate"), value: 140, unit: Symbol("U/h")) != nil)
        #expect(Plausibility.problem(metric: Symbol("pump_reservoir"), value: 180, unit: Symbol("U")) == nil)
    }

    @Test func tempBasalPercentages() {
        #expect(Plausibility.check(-100, Plausibility.tempBasalPercent, "percent", unit: "%") == nil)
        #expect(Plausibility.check(-101, Plausibility.tempBasalPercent, "percent", unit: "%") != nil)
    }
}
