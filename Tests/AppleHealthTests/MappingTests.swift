@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing

@Suite struct MappingTests {
    @Test func unitsBecomeCanonical() throws {
        let body = record("HKQuantityTypeIdentifierBloodGlucose", value: "5.5", unit: "mmol&lt;180.1558800000541&gt;/L")
            + record("HKQuantityTypeIdentifierBloodGlucose", value: "10", unit: "mmol&lt;180.1558800000541&gt;/L", start: "2024-01-02 10:05:00 +0100")
            + record("HKQuantityTypeIdentifierBloodGlucose", value: "104", unit: "mg/dL", start: "2024-01-02 10:10:00 +0100")
            + record("HKQuantityTypeIdentifierBodyTemperature", value: "98.6", unit: "degF")
            + record("HKQuantityTypeIdentifierBasalBodyTemperature", value: "36.5", unit: "degC")
            + record("HKQuantityTypeIdentifierDistanceWalkingRunning", value: "2", unit: "mi")
            + record("HKQuantityTypeIdentifierDistanceCycling", value: "1500", unit: "m")
            + record("HKQuantityTypeIdentifierActiveEnergyBurned", value: "41.84", unit: "kJ")
            + record("HKQuantityTypeIdentifierDietaryEnergyConsumed", value: "250", unit: "Cal")
            + record("HKQuantityTypeIdentifierBodyMass", value: "150", unit: "lb")
            + record("HKQuantityTypeIdentifierHeartRate", value: "61", unit: "count/min")
        let run = try read(try write(healthXML(body)))
        #expect(run.rejects.isEmpty)
        let glucose = run.metric("glucose")
        #expect(glucose.map(\.value) == [99, 180, 104])  // 5.5 × 18.0156 = 99.09 → 99; 10.0 → 180 (in range)
        #expect(glucose.map(\.unit.text) == ["mg/dL", "mg/dL", "mg/dL"])
        #expect(glucose[0].flags.contains(.convertedFromMmol) && !glucose[2].flags.contains(.convertedFromMmol))
        #expect(abs(run.metric("body_temperature")[0].value - 37) < 1e-9)
        #expect(run.metric("body_temperature")[0].unit.text == "degC")
        #expect(run.metric("basal_body_temperature")[0].value == 36.5)
        #expect(abs(run.metric("distance_walking_running")[0].value - 3.218688) < 1e-9)
        #expect(run.metric("distance_cycling")[0].value == 1.5 && run.metric("distance_cycling")[0].unit.text == "km")
        #expect(abs(run.metric("active_energy_burned")[0].value - 10) < 1e-9)
        #expect(run.metric("dietary_energy_consumed")[0].value == 250 && run.metric("dietary_energy_consumed")[0].unit.text == "kcal")
        #expect(abs(run.metric("body_mass")[0].value - 68.0388555) < 1e-6)
        #expect(run.metric("heart_rate")[0].unit.text == "count/min")
    }

    /// Correlation members repeat top-level records: stored once, and the Food correlation is one meal.
    @Test func correlationMembersAreNeverCountedTwice() throws {
        let t = "2024-01-02 12:30:00 +0100"
        let carbs = record("HKQuantityTypeIdentifierDietaryCarbohydrates", value: "45", unit: "g", source: "MyFitnessPal", start: t)
        let protein = record("HKQuantityTypeIdentifierDietaryProtein", value: "20", unit: "g", source: "MyFitnessPal", start: t)
        let fat = record("HKQuantityTypeIdentifierDietaryFatTotal", value: "12", unit: "g", source: "MyFitnessPal", start: t)
        let sys = record("HKQuantityTypeIdentifierBloodPressureSystolic", value: "121", unit: "mmHg", source: "Omron", start: t)
        let dia = record("HKQuantityTypeIdentifierBloodPressureDiastolic", value: "79", unit: "mmHg", source: "Omron", start: t)
        let loopCarbs = record("HKQuantityTypeIdentifierDietaryCarbohydrates", value: "30", unit: "g", source: "Loop",
                               start: "2024-01-02 18:00:00 +0100")
        let body = carbs + protein + fat + sys + dia + loopCarbs
            + " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" startDate=\"\(t)\" endDate=\"\(t)\">\n"
            + "  <MetadataEntry key=\"HKFoodType\" value=\"Lunch\"/>\n" + carbs + protein + fat + " </Correlation>\n"
            + " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Omron\" startDate=\"\(t)\" endDate=\"\(t)\">\n"
            + sys + dia + " </Correlation>\n"
        let run = try read(try write(healthXML(body)))
        #expect(run.rejects.isEmpty)
        #expect(run.metric("dietary_carbohydrates").count == 2)
        #expect(run.metric("dietary_protein").count == 1 && run.metric("dietary_fat_total").count == 1)
        #expect(run.metric("blood_pressure_systolic").map(\.value) == [121])
        #expect(run.metric("blood_pressure_diastolic").map(\.value) == [79])
        let sysM = run.metric("blood_pressure_systolic")[0], diaM = run.metric("blood_pressure_diastolic")[0]
        #expect(sysM.start == diaM.start && sysM.source == diaM.source)  // the pair
        let meals = run.events.filter { $0.kind == .meal }
        #expect(meals.count == 2)
        #expect(meals.reduce(0) { $0 + ($1.carbs ?? 0) } == 75)  // 45 + 30, never 120
        let lunch = try #require(meals.first { $0.source.text == "MyFitnessPal" })
        #expect(lunch.carbs == 45 && lunch.protein == 20 && lunch.fat == 12 && lunch.note == "Lunch")
        let loop = try #require(meals.first { $0.source.text == "Loop" })
        #expect(loop.carbs == 30 && loop.protein == nil)
    }

    /// A Food correlation claims its carbohydrate record wherever the two are in the file.
    @Test func correlationBeforeItsRecordStillClaimsIt() throws {
        let t = "2024-01-02 12:30:00 +0100"
        let carbs = record("HKQuantityTypeIdentifierDietaryCarbohydrates", value: "45", unit: "g", source: "MyFitnessPal", start: t)
        let food = " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" startDate=\"\(t)\" endDate=\"\(t)\">\n"
            + carbs + " </Correlation>\n"
        // Two identical records and one correlation: one meal from the correlation, one on its own.
        let run = try read(try write(healthXML(food + carbs + carbs)))
        let meals = run.events.filter { $0.kind == Event.Kind.meal }
        #expect(meals.count == 2)
        #expect(meals.map { $0.carbs ?? 0 } == [45, 45])
    }

    /// Carbohydrate records no Food correlation claims become meals at the end of the document:
    /// more than a batch of them all arrive, in file order.
    @Test func unclaimedCarbsBecomeMealsInFileOrder() throws {
        let n = 2500
        var body = ""
        var expected: [Double] = []
        for i in 0..<n {
            let grams = Double(i % 90 + 10)
            expected.append(grams)
            let start = String(format: "2024-01-%02d %02d:%02d:00 +0100", i / 1440 + 1, i / 60 % 24, i % 60)
            body += record("HKQuantityTypeIdentifierDietaryCarbohydrates", value: "\(Int(grams))", unit: "g", source: "Loop", start: start)
        }
        let run = try read(try write(healthXML(body)))
        let meals: [Event] = run.events.filter { $0.kind == Event.Kind.meal }
        let starts: [Int64] = meals.map { $0.start }
        #expect(meals.count == n)
        #expect(starts == starts.sorted())
        #expect(meals.map { $0.carbs ?? 0 } == expected)
    }

    @Test func insulinDeliveryReasons() throws {
        func insulin(_ v: String, _ reason: String, _ start: String, _ end: String? = nil) -> String {
            record("HKQuantityTypeIdentifierInsulinDelivery", value: v, unit: "IU", source: "Loop", start: start, end: end,
                   children: "  <MetadataEntry key=\"HKInsulinDeliveryReason\" value=\"\(reason)\"/>\n")
        }
        let run = try read(try write(healthXML(insulin("0.35", "1", "2024-01-02 10:00:00 +0100")
                                              + insulin("4.5", "2", "2024-01-02 10:05:00 +0100")
                                              + insulin("0.3", "1", "2024-01-02 10:10:00 +0100", "2024-01-02 10:40:00 +0100"))))
        #expect(run.events.map(\.kind) == [.insulin, .insulin, .insulin])
        #expect(run.events.map(\.subtype.text) == ["basal", "bolus", "basal"])
        #expect(run.events.map(\.insulin) == [0.35, 4.5, 0.3])
        // A basal delivery over a span also gives its rate, stored as every pump's is (BasalRates):
        // 0.3 U over 30 minutes is 0.6 U/h over that span; an instant dose has no rate.
        #expect(run.measurements.map { [$0.metric.text, $0.unit.text] } == [["basal_rate", "U/h"]])
        #expect(run.measurements.map { [$0.value, Double($0.end - $0.start)] } == [[0.6, 1800]])
    }

    @Test func categoriesWithAndWithoutValue() throws {
        let body = record("HKCategoryTypeIdentifierMindfulSession", value: nil, start: "2024-01-02 10:00:00 +0100", end: "2024-01-02 10:10:00 +0100")
            + record("HKCategoryTypeIdentifierToothbrushingEvent", value: "HKCategoryValueNotApplicable", start: "2024-01-02 07:00:00 +0100", end: "2024-01-02 07:02:00 +0100")
            + record("HKCategoryTypeIdentifierHandwashingEvent", value: nil, start: "2024-01-02 08:00:00 +0100", end: "2024-01-02 08:00:30 +0100")
            + record("HKCategoryTypeIdentifierSleepAnalysis", value: "HKCategoryValueSleepAnalysisAsleepDeep", start: "2024-01-02 01:00:00 +0100", end: "2024-01-02 02:30:00 +0100")
            + record("HKCategoryTypeIdentifierSleepAnalysis", value: "HKCategoryValueSleepAnalysisAsleepREM", start: "2024-01-02 02:30:00 +0100", end: "2024-01-02 03:00:00 +0100")
        let run = try read(try write(healthXML(body)))
        #expect(run.rejects.isEmpty)
        #expect(run.metric("mindful_session").map(\.value) == [10])
        #expect(run.metric("toothbrushing").map(\.value) == [2])
        #expect(run.metric("handwashing").map(\.value) == [0.5])
        #expect(run.metric("sleep_analysis.asleep_deep").map(\.value) == [90])
        #expect(run.metric("sleep_analysis.asleep_rem").map(\.value) == [30])
    }

    @Test func unknownTypesAreKeptGenerically() throws {
        let body = record("HKQuantityTypeIdentifierAppleSleepingWristTemperature", value: "-0.3", unit: "degC")
            + record("HKQuantityTypeIdentifierSomethingNewInIOS27", value: "7", unit: "count")
            + record("com.example.CustomThing", value: "blue")
        let run = try read(try write(healthXML(body)))
        #expect(run.rejects.isEmpty)
        #expect(run.metric("apple_sleeping_wrist_temperature").map(\.value) == [-0.3])
        #expect(run.metric("something_new_in_ios27").map(\.value) == [7])
        #expect(run.measurements.count == 3)
    }

    @Test func wellKnownMetadata() throws {
        let body = record("HKQuantityTypeIdentifierBloodGlucose", value: "140", unit: "mg/dL", source: "Contour",
                          start: "2024-07-02 10:00:00 +0100",
                          children: "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
                              + "  <MetadataEntry key=\"HKBloodGlucoseMealTime\" value=\"2\"/>\n"
                              + "  <MetadataEntry key=\"HKTimeZone\" value=\"America/New_York\"/>\n")
        let run = try read(try write(healthXML(body)))
        let m = try #require(run.measurements.first)
        #expect(m.flags.contains(.userEntered))
        #expect(m.utcOffset == -4 * 3600)  // New York in July, whatever the written +0100
        #expect(m.start == 1_719_910_800)  // 2024-07-02 09:00:00 UTC
        #expect(m.metadata?.contains("\"meal_time\":\"postprandial\"") == true)
    }

    @Test func badRecordsAreRejectedWithTheirLine() throws {
        let body = record("HKQuantityTypeIdentifierStepCount", value: nil, unit: "count")
            + record("HKQuantityTypeIdentifierStepCount", value: "12", unit: "count", start: "2024-13-02 10:00:00 +0100")
            + record("HKQuantityTypeIdentifierStepCount", value: "15", unit: "count")
        let run = try read(try write(healthXML(body)))
        #expect(run.measurements.map(\.value) == [15])
        #expect(run.rejects.map(\.line) == [4, 5])
        #expect(run.rejects[0].reason.contains("without a value"))
        #expect(run.rejects[1].reason.contains("startDate"))
    }

    @Test func typeSourceAndDateFilters() throws {
        let body = record("HKQuantityTypeIdentifierBloodGlucose", value: "100", unit: "mg/dL", source: "Dexcom", start: "2024-01-01 10:00:00 +0000")
            + record("HKQuantityTypeIdentifierBloodGlucose", value: "110", unit: "mg/dL", source: "Dexcom", start: "2024-01-02 10:00:00 +0000")
            + record("HKQuantityTypeIdentifierBloodGlucose", value: "120", unit: "mg/dL", source: "Contour", start: "2024-01-02 11:00:00 +0000")
            + record("HKQuantityTypeIdentifierStepCount", value: "50", unit: "count", source: "Dexcom", start: "2024-01-03 10:00:00 +0000")
        let path = try write(healthXML(body))
        #expect(try read(path, types: ["glucose"]).measurements.count == 3)
        #expect(try read(path, types: ["HKQuantityTypeIdentifierStepCount"]).measurements.map(\.value) == [50])
        #expect(try read(path, exclude: ["step_count"]).measurements.count == 3)
        #expect(try read(path, sources: ["Dexcom"]).measurements.map(\.value) == [100, 110, 50])
        let jan2 = CivilDate.days(year: 2024, month: 1, day: 2)
        #expect(try read(path, from: jan2, to: jan2).measurements.map(\.value) == [110, 120])
        #expect(try read(path, types: ["glucose"], sources: ["Dexcom"], from: jan2).measurements.map(\.value) == [110])
    }
}
